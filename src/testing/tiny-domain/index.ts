import type { Domain } from '../../domains/domain.js';
import { baseFromSqliteFile } from '../../env/build-base.js';
import type { EnvironmentBase } from '../../env/environment-base.js';
import { collectionsFromDdl } from '../../env/sql-collections.js';
import { LIBRARY_DDL } from './database.js';
import { LibraryOracleAgent, LibraryScriptedUser } from './roles.js';
import { LIBRARY_SYNTHESIS, type LibraryFuzz } from './synthesis.js';
import { LIBRARY_TOOLS } from './tools.js';

export { createLibraryDb, LIBRARY_DDL } from './database.js';

/**
 * A tiny domain over a plain SQLite file — members, books and loans; two read tools, two write tools, one
 * constraint kind, a scripted user and an oracle agent — that proves the domain contract needs nothing of τ²:
 * its state collections come from the schema (entities keyed by primary key), and its base is an in-memory copy of
 * the file. Used by cove's own tests and offered to users for testing their code against cove.
 */
export const libraryDomain: Domain = {
  name: 'library',
  version: 'library-1',
  schemaSql: LIBRARY_DDL,
  collections: collectionsFromDdl(LIBRARY_DDL),
  tools: LIBRARY_TOOLS,
  policy: {
    cove: 'Identify the member by email before anything else. Confirm each loan before recording it as returned.',
    instructions: 'You help members of a small lending library. Use the tools; make one tool call at a time.',
  },
  synthesis: LIBRARY_SYNTHESIS,
  simulation: {
    createOracleAgent: (task) => new LibraryOracleAgent(task.fuzz as unknown as LibraryFuzz),
    createScriptedUser: (task) => new LibraryScriptedUser(task.fuzz as unknown as LibraryFuzz),
  },
};

/** A base of the library domain from a SQLite file made by {@link createLibraryDb} (the file is never written). */
export function libraryBase(file: string): EnvironmentBase {
  return baseFromSqliteFile(libraryDomain, file);
}
