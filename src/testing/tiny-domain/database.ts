import Database from 'better-sqlite3';
import { Rng } from '../../core/rng.js';

/** The tiny lending library's schema: members borrow books through loans. */
export const LIBRARY_DDL = `
CREATE TABLE members (member_id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE);
CREATE TABLE books (book_id TEXT PRIMARY KEY, title TEXT NOT NULL, author TEXT NOT NULL);
CREATE TABLE loans (
  loan_id TEXT PRIMARY KEY,
  member_id TEXT NOT NULL REFERENCES members(member_id),
  book_id TEXT NOT NULL REFERENCES books(book_id),
  due TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'returned'))
);
`;

const FIRST = ['Ada', 'Ben', 'Cleo', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jun', 'Kai', 'Lena'];
const LAST = ['Moss', 'Reyes', 'Okafor', 'Lind', 'Sato', 'Berg', 'Costa', 'Nash'];
const WORDS = [
  'River',
  'Glass',
  'Winter',
  'Signal',
  'Orchard',
  'Paper',
  'Harbor',
  'Copper',
  'Quiet',
  'Atlas',
];
const NOUNS = ['Garden', 'Machine', 'Letters', 'Map', 'Season', 'House', 'Engine', 'Song'];

/**
 * Writes a seeded tiny library database to a new SQLite file: `members` members, 3 × as many books and
 * 2–5 loans per member (each member's books distinct, about four in five loans open). The same seed and
 * size give the same rows.
 */
export function createLibraryDb(file: string, options: { seed: number; members?: number }): void {
  const rng = new Rng(options.seed);
  const members = options.members ?? 20;
  const db = new Database(file);
  try {
    db.exec(LIBRARY_DDL);
    const insertMember = db.prepare('INSERT INTO members VALUES (?, ?, ?)');
    const insertBook = db.prepare('INSERT INTO books VALUES (?, ?, ?)');
    const insertLoan = db.prepare('INSERT INTO loans VALUES (?, ?, ?, ?, ?)');
    db.transaction(() => {
      const books: string[] = [];
      for (let i = 0; i < members * 3; i++) {
        const id = `B${String(1000 + i)}`;
        insertBook.run(
          id,
          `The ${rng.pick(WORDS)} ${rng.pick(NOUNS)} ${i + 1}`,
          `${rng.pick(FIRST)} ${rng.pick(LAST)}`,
        );
        books.push(id);
      }
      let loan = 0;
      for (let i = 0; i < members; i++) {
        const first = rng.pick(FIRST);
        const last = rng.pick(LAST);
        const id = `m_${first.toLowerCase()}_${100 + i}`;
        insertMember.run(
          id,
          `${first} ${last}`,
          `${first.toLowerCase()}.${last.toLowerCase()}${i}@example.org`,
        );
        for (const book of rng.sample(books, rng.int(2, 5))) {
          const day = String(rng.int(1, 28)).padStart(2, '0');
          insertLoan.run(
            `L${String(5000 + loan++)}`,
            id,
            book,
            `2026-12-${day}`,
            rng.chance(0.8) ? 'open' : 'returned',
          );
        }
      }
    })();
  } finally {
    db.close();
  }
}
