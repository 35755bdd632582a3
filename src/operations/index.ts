// The registry: the 41 operations of spec 4.1, in its order, then the trophy group (issue #21).
import type { Operation } from './define.ts';
import { getSiteInfo, listInterviewQuestions, answerInterview, getAccount } from './site.ts';
import { searchListings, getListing, getAlternatives, compareListings } from './listings.ts';
import { getBadges } from './badges.ts';
import { listCategories, getCategory } from './categories.ts';
import { getLaunchWeek, listLaunches, getLeaderboard, listAwards } from './launches.ts';
import { listFounders, getFounder } from './founders.ts';
import { listBlogPosts, getBlogPost } from './blog.ts';
import { submitListing, listMyDrafts, getDraft, updateDraft, inviteCofounder, submitDraft } from './drafts.ts';
import {
  listMyListings,
  getMyListing,
  updateMyListing,
  postListingUpdate,
  addMilestone,
  deleteMilestone,
  setFounderStory,
  chooseFreeListing,
} from './my-listings.ts';
import { claimListing, listMyClaims, verifyClaim } from './claims.ts';
import {
  getTrophyCabinet,
  getFounderTrophyCabinet,
  getTrophyLeaderboard,
  getHallOfFame,
  listProgrammes,
  getProgramme,
  enterProgramme,
  listMyProgrammeEntries,
  verifyAward,
} from './trophies.ts';
import { listProducts, quoteOrder, createCheckout, listMyOrders, getOrder } from './orders.ts';

export const operations: readonly Operation[] = [
  getSiteInfo,
  searchListings,
  getListing,
  getAlternatives,
  compareListings,
  listCategories,
  getCategory,
  getLaunchWeek,
  listLaunches,
  getLeaderboard,
  listFounders,
  getFounder,
  listBlogPosts,
  getBlogPost,
  listAwards,
  getBadges,
  listInterviewQuestions,
  listProducts,
  getAccount,
  submitListing,
  listMyDrafts,
  getDraft,
  updateDraft,
  inviteCofounder,
  submitDraft,
  listMyListings,
  getMyListing,
  updateMyListing,
  postListingUpdate,
  addMilestone,
  deleteMilestone,
  setFounderStory,
  answerInterview,
  chooseFreeListing,
  claimListing,
  listMyClaims,
  verifyClaim,
  quoteOrder,
  createCheckout,
  listMyOrders,
  getOrder,
  getTrophyCabinet,
  getFounderTrophyCabinet,
  getTrophyLeaderboard,
  getHallOfFame,
  listProgrammes,
  getProgramme,
  enterProgramme,
  listMyProgrammeEntries,
  verifyAward,
];
