/**
 * `cove/testing`: what users need to test their own code against cove — a tiny complete domain over a SQLite
 * file, scripted roles, and a real OpenAI-compatible server that answers from a script.
 */

export type { MockScript, ScriptTurn } from '../server/mock-llm/app.js';
export {
  ScriptedAgent,
  type ScriptedChatServer,
  ScriptedLines,
  startScriptedChatServer,
} from './scripted-chat.js';
export { createLibraryDb, LIBRARY_DDL, libraryBase, libraryDomain } from './tiny-domain/index.js';
