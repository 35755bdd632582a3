// Names, places and biographies for the demo founders and voters (invented people).

export const FIRST_NAMES = [
  'Maya', 'Jonas', 'Priya', 'Lucas', 'Amara', 'Tomasz', 'Sofia', 'Kenji', 'Elena', 'Mateo', 'Aisha', 'Noah', 'Ingrid', 'Rafael', 'Chloe', 'Dmitri',
  'Hannah', 'Arjun', 'Leila', 'Oskar', 'Nadia', 'Felix', 'Yuki', 'Samuel', 'Zara', 'Henrik', 'Camila', 'Ibrahim', 'Freya', 'Diego', 'Mei', 'Tobias',
  'Anika', 'Marco', 'Olivia', 'Emeka', 'Clara', 'Ravi', 'Lina', 'Gabriel', 'Sara', 'Mikael', 'Fatima', 'Julien', 'Ada', 'Kwame', 'Nora', 'Pablo',
  'Hana', 'Viktor', 'Isla', 'Omar', 'Astrid', 'Daniel', 'Keiko', 'Luca', 'Rosa', 'Ethan', 'Selin', 'Bruno', 'Tara', 'Adrian', 'Mira', 'Theo',
  'Lucia', 'Kofi', 'Eva', 'Hugo', 'Anya', 'Leo', 'Ines', 'Sebastian', 'Yara', 'Martin', 'Paula', 'Nikhil', 'Greta', 'Andre', 'Lea', 'Samir',
];

export const LAST_NAMES = [
  'Okafor', 'Lindqvist', 'Raman', 'Ferreira', 'Mensah', 'Kowalski', 'Rossi', 'Tanaka', 'Petrova', 'Alvarez', 'Rahman', 'Becker', 'Haugen', 'Costa',
  'Dubois', 'Volkov', 'Schmidt', 'Iyer', 'Haddad', 'Nilsson', 'Novak', 'Weber', 'Sato', 'Adeyemi', 'Khan', 'Larsen', 'Moreno', 'Yilmaz', 'Jensen',
  'Ortega', 'Chen', 'Fischer', 'Varga', 'Bianchi', 'Walsh', 'Eze', 'Laurent', 'Menon', 'Saleh', 'Martin', 'Berg', 'Horvat', 'Nakamura', 'Silva',
  'Brennan', 'Asante', 'Keller', 'Navarro', 'Kim', 'Popescu', 'Murphy', 'Farouk', 'Holm', 'Wright', 'Mori', 'Conti', 'Santos', 'Carter', 'Aydin',
  'Richter', 'Das', 'Ward', 'Lund', 'Marsh', 'Pereira', 'Boateng', 'Vogel', 'Lambert', 'Kaur', 'Stone', 'Duarte', 'Sharma', 'Engel', 'Roux',
];

/** [country code, city] pairs weighted by how often they appear. */
export const PLACES: Array<[string, string]> = [
  ['US', 'San Francisco'], ['US', 'New York'], ['US', 'Austin'], ['US', 'Seattle'], ['US', 'Boston'], ['US', 'Denver'],
  ['GB', 'London'], ['GB', 'Manchester'], ['GB', 'Edinburgh'], ['DE', 'Berlin'], ['DE', 'Munich'], ['DE', 'Hamburg'],
  ['FR', 'Paris'], ['FR', 'Lyon'], ['NL', 'Amsterdam'], ['NL', 'Rotterdam'], ['SE', 'Stockholm'], ['DK', 'Copenhagen'],
  ['NO', 'Oslo'], ['FI', 'Helsinki'], ['EE', 'Tallinn'], ['PL', 'Warsaw'], ['ES', 'Barcelona'], ['ES', 'Madrid'], ['PT', 'Lisbon'],
  ['IT', 'Milan'], ['IE', 'Dublin'], ['CH', 'Zurich'], ['AT', 'Vienna'], ['CZ', 'Prague'], ['CA', 'Toronto'], ['CA', 'Vancouver'],
  ['IN', 'Bengaluru'], ['IN', 'Pune'], ['SG', 'Singapore'], ['JP', 'Tokyo'], ['AU', 'Sydney'], ['AU', 'Melbourne'], ['NZ', 'Auckland'],
  ['BR', 'São Paulo'], ['MX', 'Mexico City'], ['AR', 'Buenos Aires'], ['NG', 'Lagos'], ['KE', 'Nairobi'], ['ZA', 'Cape Town'], ['AE', 'Dubai'],
  ['IL', 'Tel Aviv'], ['TR', 'Istanbul'], ['KR', 'Seoul'],
];

export const FOUNDER_TITLES = ['Founder & CEO', 'Co-founder & CTO', 'Co-founder', 'Founder', 'Co-founder & CEO', 'Co-founder & Head of Product', 'Co-founder & Head of Design', 'Solo founder'];

/** Earlier careers, finished as "…previously {background}". */
export const BACKGROUNDS = [
  'led platform engineering at a payments company',
  'was an early engineer at a developer-tools startup acquired in 2021',
  'ran growth for a B2B SaaS company from seed to Series B',
  'spent six years as a product designer at a design agency',
  'worked as a data scientist in retail forecasting',
  'built internal tools for a logistics scale-up',
  'managed customer support for a fast-growing marketplace',
  'was a freelance developer for a decade',
  'worked in investment banking before learning to code',
  'taught computer science at a secondary school',
  'led a mobile team at a fitness app with a million users',
  'ran a small digital agency',
  'worked on search quality at a large web company',
  'was a security engineer at a bank',
  'built e-commerce shops for independent brands',
  'worked as a product manager in healthcare software',
  'was an accountant who automated herself out of a job',
  'ran operations at a hardware startup',
];

export const MOTIVATIONS = [
  'started {product} after hitting the same problem at three jobs in a row',
  'built the first version of {product} over a long weekend to scratch their own itch',
  'turned an internal tool into {product} when other teams kept asking for it',
  'started {product} after watching customers struggle with the tools that existed',
  'began {product} as an open-source side project that grew a community first',
  'quit a comfortable job to build {product} full time after the side project found paying customers',
];

export const INTERESTS = [
  'Outside work: long-distance running and too many houseplants.',
  'Writes a monthly newsletter about building in public.',
  'Mentors first-time founders through a local accelerator.',
  'Happiest on a bike somewhere without phone signal.',
  'Collects vintage synthesizers and occasionally plays them.',
  'Bakes sourdough and argues about typography.',
  'Speaks at meet-ups about shipping small and often.',
  'Climbs, cooks and reads a book a week.',
];
