// The founder interview (answer_interview): the caller's answers to the active interview questions,
// each replacing the earlier answer to its question; an empty answer withdraws it.
import type { Ctx } from '../operations/context.ts';
import { userOf } from '../operations/context.ts';
import { validationError, type ErrorDetail } from '../operations/errors.ts';
import { activeQuestionTexts, answersOf, deleteAnswer, upsertAnswer } from '../store/repos/my-listings.ts';

export async function answerInterview(ctx: Ctx, answers: Array<{ question_id: number; answer: string }>) {
  const user = userOf(ctx);
  const errors: ErrorDetail[] = [];
  const questions = await activeQuestionTexts(
    ctx.db,
    answers.map((a) => a.question_id),
  );
  const firstAt = new Map<number, number>();
  answers.forEach((a, i) => {
    const path = `body.answers.${i}.question_id`;
    if (!questions.has(a.question_id))
      errors.push({
        path,
        message: `no interview question has id ${a.question_id}; use the ids from list_interview_questions`,
      });
    else if (firstAt.has(a.question_id))
      errors.push({
        path,
        message: `question ${a.question_id} is answered twice in this request (also at body.answers.${firstAt.get(a.question_id)}); send each question once`,
      });
    else firstAt.set(a.question_id, i);
  });
  if (errors.length) throw validationError(errors);
  const now = ctx.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    for (const a of answers) {
      const text = a.answer.trim();
      if (text) await upsertAnswer(trx, user.userId, a.question_id, text, now);
      else await deleteAnswer(trx, user.userId, a.question_id); // an empty answer withdraws it
    }
  });
  return { answers: await answersOf(ctx.db, user.userId) };
}
