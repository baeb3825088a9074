import path from 'node:path';
import { addFilePatch, canAddFile, canUpdateFile, deleteFilePatch, onlyCrlf, updateFilePatch } from './apply-patch-text.js';
import { type PatchTool, type ShellTool, type TextTool, type ToolKit, withRequired, type WriteTool } from './find-tool-kit.js';
import { type MinimalEdit, minimalEdit } from './minimal-edit.js';
import { removeFileCommand, writeFileCommand } from './shell-command.js';
import type { FileEdit, GoldSession } from './types.js';

/** One tool call of the gold script. */
export interface GoldStep {
  readonly tool: string;
  /** Function-tool arguments, or a custom tool's free-text input. */
  readonly input: Readonly<Record<string, unknown>> | string;
  /** What the assistant says before the call. */
  readonly say: string;
}

/** The calls that make a session's change, and the final answer; or why it cannot be made. */
export type GoldPlan =
  | { readonly ok: true; readonly steps: readonly GoldStep[]; readonly summary: string }
  | { readonly ok: false; readonly reason: string };

/**
 * Plans the tool calls that turn the workspace into the session's `after` state with the
 * harness's own tools, preferring what a model would use: an edit tool with a minimal unique
 * old string (Claude Code Reads first), else apply_patch, else a whole-file write, else the
 * shell. A tool is skipped where it would not reproduce the bytes (mixed line endings, line-end
 * whitespace Claude Code strips, apply_patch and a missing final newline). Pure.
 */
export function planGoldSteps(session: GoldSession, kit: ToolKit): GoldPlan {
  const steps: GoldStep[] = [];
  const done: string[] = [];
  for (const edit of session.edits) {
    if ([edit.before, edit.after].some((text) => text?.includes('\u0000'))) {
      return { ok: false, reason: `${edit.path} is a binary file, which the scripted model server does not support` };
    }
    if (edit.before === edit.after) continue;
    const planned = planFile(edit, path.posix.join(session.workspace, edit.path), kit);
    if (planned === null) return { ok: false, reason: `the offered tools cannot ${verb(edit)} ${edit.path}` };
    steps.push(...planned);
    done.push(`${verb(edit)}d ${edit.path}`);
  }
  return { ok: true, steps, summary: `Done: ${done.length === 0 ? 'nothing to change' : done.join(', ')}.` };
}

function verb(edit: FileEdit): 'create' | 'delete' | 'update' {
  return edit.before === null ? 'create' : edit.after === null ? 'delete' : 'update';
}

function planFile(edit: FileEdit, absolute: string, kit: ToolKit): GoldStep[] | null {
  const { before, after } = edit;
  const { write, patch, shell } = kit;
  const writes = (text: string): boolean =>
    write !== null && keeps(write, edit.path, text) && !(write.crlfLikeExisting && before?.includes('\r\n') && !onlyCrlf(text));
  if (after === null) {
    if (patch) return [patchStep(patch, deleteFilePatch(edit.path), `I will delete ${edit.path}.`)];
    return shell ? [shellStep(shell, removeFileCommand(absolute), `Delete ${edit.path}`)] : null;
  }
  if (before === null) {
    const say = `I will create ${edit.path}.`;
    if (write && writes(after)) return [writeStep(write, absolute, after, say)];
    if (patch && canAddFile(after)) return [patchStep(patch, addFilePatch(edit.path, after), say)];
    return shell ? [shellStep(shell, writeFileCommand(absolute, after), `Create ${edit.path}`)] : null;
  }
  const say = `I will update ${edit.path}.`;
  const change = editFor(kit, before, after);
  if (kit.edit && change && keeps(kit.edit, edit.path, change.newText)) {
    const { name, pathKey, oldKey, newKey, listKey, schema } = kit.edit;
    const pair = { [oldKey]: change.oldText, [newKey]: change.newText };
    const known = listKey === null ? { [pathKey]: absolute, ...pair } : { [pathKey]: absolute, [listKey]: [pair] };
    return [...readFirst(kit, absolute), { tool: name, input: withRequired(schema, known, `Update ${edit.path}`), say }];
  }
  const hunk = canUpdateFile(before, after) ? minimalEdit(before, after) : null;
  if (patch && hunk) return [patchStep(patch, updateFilePatch(edit.path, hunk), say)];
  if (write && writes(after)) return [...readFirst(kit, absolute), writeStep(write, absolute, after, say)];
  return shell ? [shellStep(shell, writeFileCommand(absolute, after), `Update ${edit.path}`)] : null;
}

/**
 * The old/new strings for the edit tool, or null when it cannot make the change exactly.
 * Edit tools normalize line endings when they match or write (seen in all five harnesses), so
 * only files whose sides are both all-LF or both all-CRLF are edited; Claude Code matches a
 * CRLF file as LF and gets LF strings.
 */
function editFor(kit: ToolKit, before: string, after: string): MinimalEdit | null {
  if (!before.includes('\r') && !after.includes('\r')) return minimalEdit(before, after);
  if (!onlyCrlf(before) || !onlyCrlf(after)) return null;
  if (!kit.edit?.matchesLf) return minimalEdit(before, after);
  return minimalEdit(before.replace(/\r\n/g, '\n'), after.replace(/\r\n/g, '\n'));
}

/** Whether the tool writes `text` into `file` unchanged. */
function keeps(tool: TextTool, file: string, text: string): boolean {
  return !tool.stripsLineEndWhitespace || /\.mdx?$/i.test(file) || !/[^\S\r\n]+(?=\r\n|\n|\r|$)/.test(text);
}

/** Claude Code refuses to edit or overwrite a file it has not Read in the session. */
function readFirst(kit: ToolKit, absolute: string): GoldStep[] {
  if (!kit.read) return [];
  return [{ tool: kit.read.name, input: withRequired(kit.read.schema, { [kit.read.pathKey]: absolute }, 'Read the file'), say: 'Let me read the file first.' }];
}

function writeStep(tool: WriteTool, absolute: string, content: string, say: string): GoldStep {
  const { name, pathKey, contentKey, schema } = tool;
  return { tool: name, input: withRequired(schema, { [pathKey]: absolute, [contentKey]: content }, say), say };
}

function patchStep(tool: PatchTool, patch: string, say: string): GoldStep {
  const { name, kind, inputKey } = tool;
  return { tool: name, input: kind === 'custom' ? patch : { [inputKey]: patch }, say };
}

/** A call of the harness's shell tool running `command`. */
export function shellStep(tool: ShellTool, command: string, purpose: string): GoldStep {
  const { name, commandKey, argv, schema } = tool;
  const known = { [commandKey]: argv ? ['bash', '-lc', command] : command };
  return { tool: name, input: withRequired(schema, known, purpose), say: `I will run a command: ${purpose.toLowerCase()}.` };
}
