import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findToolKit } from './find-tool-kit.js';
import { goldReply, SHORT_ANSWER } from './gold-reply.js';
import { parseRequest } from './parse-request.js';
import { planGoldSteps } from './plan-gold-steps.js';
import type { GoldSession, ParsedRequest, WireFormat } from './types.js';

/** Request 2 of real sessions (one tool call made), file tools kept: test/model-server/fixtures. */
function captured(harness: string): ParsedRequest {
  const url = new URL(`../../test/model-server/fixtures/request-${harness}.json`, import.meta.url);
  const { format, path, body } = JSON.parse(readFileSync(url, 'utf8')) as { format: WireFormat; path: string; body: unknown };
  return parseRequest(format, path, body);
}

const session: GoldSession = {
  workspace: '/work',
  edits: [
    { path: 'src/a.js', before: 'f\n  r1\n}\ng\n  r1\n}\n', after: 'f\n  r1\n}\ng\n  r2\n}\n' },
    { path: 'new.txt', before: null, after: 'hello\n' },
    { path: 'old.txt', before: 'bye\n', after: null },
  ],
};

const plan = (harness: string) => {
  const result = planGoldSteps(session, findToolKit(captured(harness).tools));
  if (!result.ok) throw new Error(result.reason);
  return result.steps.map((s) => [s.tool, s.input]);
};

describe('parseRequest on captured requests', () => {
  it.each([
    ['claude-code', 'anthropic-messages', 'claude-sonnet-4-5', ['Read']],
    ['codex', 'openai-responses', 'gpt-5.5', ['apply_patch']],
    ['pi', 'anthropic-messages', 'claude-sonnet-4-5', ['edit']],
    ['opencode-anthropic', 'anthropic-messages', 'claude-sonnet-4-5', ['edit']],
    ['opencode-chat', 'openai-chat', 'claude-sonnet-4-5', ['edit']],
    ['gemini-cli', 'gemini-generate', 'gemini-2.5-pro', ['replace']],
  ])('%s: reads the format, model, streaming and the tool calls made so far', (harness, format, model, calls) => {
    const request = captured(harness);
    expect(request).toMatchObject({ format, model, streamed: true, toolCalls: calls });
    expect(request.includeUsage).toBe(harness === 'opencode-chat');
  });

  it('sees Codex apply_patch as a custom tool and the shell as a function', () => {
    const tools = captured('codex').tools;
    expect(tools.find((t) => t.name === 'apply_patch')?.kind).toBe('custom');
    expect(tools.find((t) => t.name === 'exec_command')?.kind).toBe('function');
  });
});

describe('planGoldSteps with each harness\'s real tools', () => {
  const edit = { old: 'g\n  r1\n}\n', new: 'g\n  r2\n}\n' };

  it('Claude Code: Read, then Edit with a unique old string; Write; Bash rm', () => {
    expect(plan('claude-code')).toEqual([
      ['Read', { file_path: '/work/src/a.js' }],
      ['Edit', { file_path: '/work/src/a.js', old_string: edit.old, new_string: edit.new }],
      ['Write', { file_path: '/work/new.txt', content: 'hello\n' }],
      ['Bash', { command: "rm '/work/old.txt'" }],
    ]);
  });

  it('Codex: apply_patch custom-tool patches with relative paths', () => {
    expect(plan('codex')).toEqual([
      ['apply_patch', '*** Begin Patch\n*** Update File: src/a.js\n@@\n g\n-  r1\n+  r2\n }\n*** End of File\n*** End Patch\n'],
      ['apply_patch', '*** Begin Patch\n*** Add File: new.txt\n+hello\n*** End Patch\n'],
      ['apply_patch', '*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n'],
    ]);
  });

  it('pi: edit with an edits list', () => {
    expect(plan('pi').slice(0, 2)).toEqual([
      ['edit', { path: '/work/src/a.js', edits: [{ oldText: edit.old, newText: edit.new }] }],
      ['write', { path: '/work/new.txt', content: 'hello\n' }],
    ]);
  });

  it('OpenCode: edit and write with camelCase keys; bash', () => {
    for (const harness of ['opencode-anthropic', 'opencode-chat']) {
      expect(plan(harness)).toEqual([
        ['edit', { filePath: '/work/src/a.js', oldString: edit.old, newString: edit.new }],
        ['write', { filePath: '/work/new.txt', content: 'hello\n' }],
        ['bash', { command: "rm '/work/old.txt'" }],
      ]);
    }
  });

  it('Gemini CLI: replace with the instruction it requires; write_file; run_shell_command', () => {
    expect(plan('gemini-cli')).toEqual([
      ['replace', { file_path: '/work/src/a.js', old_string: edit.old, new_string: edit.new, instruction: 'Update src/a.js' }],
      ['write_file', { file_path: '/work/new.txt', content: 'hello\n' }],
      ['run_shell_command', { command: "rm '/work/old.txt'" }],
    ]);
  });

  it('Claude Code gets LF strings for a CRLF file, and the shell for line-end spaces it would strip', () => {
    const kit = findToolKit(captured('claude-code').tools);
    const crlf = planGoldSteps({ workspace: '/w', edits: [{ path: 'a.txt', before: 'x\r\ny\r\n', after: 'x\r\nY\r\n' }] }, kit);
    expect(crlf.ok && crlf.steps[1]?.input).toEqual({ file_path: '/w/a.txt', old_string: 'y\n', new_string: 'Y\n' });
    const spaces = planGoldSteps({ workspace: '/w', edits: [{ path: 'a.txt', before: 'x\ny\n', after: 'x\ny \n' }] }, kit);
    expect(spaces.ok && spaces.steps.map((s) => s.tool)).toEqual(['Bash']);
    const markdown = planGoldSteps({ workspace: '/w', edits: [{ path: 'a.md', before: 'x\ny\n', after: 'x\ny  \n' }] }, kit);
    expect(markdown.ok && markdown.steps.map((s) => s.tool)).toEqual(['Read', 'Edit']);
  });

  it('writes whole files when line endings are mixed, and uses the shell where Gemini would convert them', () => {
    const edits = [{ path: 'm.txt', before: 'a\r\nb\n', after: 'a\r\nB\n' }];
    const tools = (harness: string) => {
      const result = planGoldSteps({ workspace: '/w', edits }, findToolKit(captured(harness).tools));
      return result.ok && result.steps.map((s) => s.tool);
    };
    expect(tools('pi')).toEqual(['write']);
    expect(tools('claude-code')).toEqual(['Read', 'Write']);
    expect(tools('gemini-cli')).toEqual(['run_shell_command']);
    expect(tools('codex')).toEqual(['exec_command']);
  });

  it('refuses binary content with a reason', () => {
    const result = planGoldSteps({ workspace: '/w', edits: [{ path: 'img.png', before: null, after: 'PNG\u0000' }] }, findToolKit(captured('pi').tools));
    expect(result).toEqual({ ok: false, reason: 'img.png is a binary file, which the scripted model server does not support' });
  });
});

describe('goldReply', () => {
  it('answers the step numbered by the tool calls already made, then the summary', () => {
    const request = captured('claude-code'); // one call (Read) made
    expect(goldReply(request, session)).toMatchObject({ kind: 'tool', name: 'Edit' });
    const done = { ...request, toolCalls: ['Read', 'Edit', 'Write', 'Bash'] };
    expect(goldReply(done, session)).toEqual({ kind: 'text', text: 'Done: updated src/a.js, created new.txt, deleted old.txt.' });
  });

  it('answers short text to a request without tools, and says so when there is no session', () => {
    expect(goldReply({ ...captured('pi'), tools: [] }, session)).toEqual({ kind: 'text', text: SHORT_ANSWER });
    expect(goldReply(captured('pi'), null)).toMatchObject({ kind: 'text', text: expect.stringMatching(/^Done: no session/) });
  });

  it('answers a final text explaining why when it cannot make the change', () => {
    const binary: GoldSession = { workspace: '/w', edits: [{ path: 'b.bin', before: '\u0000', after: '\u0001' }] };
    expect(goldReply(captured('pi'), binary)).toMatchObject({ kind: 'text', text: expect.stringMatching(/binary file/) });
  });
});

describe('structured-output requests without tools', () => {
  it('answer JSON that fits the schema (Gemini CLI\'s model router), so the harness need not retry', () => {
    const router = {
      contents: [{ role: 'user', parts: [{ text: 'route' }] }],
      generationConfig: {
        responseMimeType: 'application/json',
        responseJsonSchema: {
          type: 'OBJECT',
          properties: { complexity_reasoning: { type: 'STRING' }, complexity_score: { type: 'INTEGER' }, model: { type: 'STRING', enum: ['flash', 'pro'] } },
          required: ['complexity_reasoning', 'complexity_score'],
        },
      },
    };
    const request = parseRequest('gemini-generate', '/v1beta/models/gemini-3.5-flash-lite:generateContent', router);
    expect(JSON.parse((goldReply(request, null) as { text: string }).text)).toEqual({ complexity_reasoning: 'scripted', complexity_score: 1, model: 'flash' });
  });

  it.each([
    ['openai-chat', { response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object', properties: { ok: { type: 'boolean' } } } } } }, { ok: false }],
    ['openai-responses', { text: { format: { type: 'json_schema', name: 'x', schema: { type: 'object', properties: { n: { type: 'number', minimum: 3 } } } } } }, { n: 3 }],
    ['openai-chat', { response_format: { type: 'json_object' } }, {}],
    ['anthropic-messages', { output_format: { type: 'json_schema', schema: { type: 'object', properties: { tags: { type: 'array' } } } } }, { tags: [] }],
  ] as const)('%s %j gets JSON', (format, extra, expected) => {
    const request = parseRequest(format, '/', { model: 'm', ...extra });
    expect(JSON.parse((goldReply(request, null) as { text: string }).text)).toEqual(expected);
  });
});
