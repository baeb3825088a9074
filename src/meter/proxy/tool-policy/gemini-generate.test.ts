import { describe, expect, it } from 'vitest';
import { GEMINI_FIELDS, GEMINI_INPUTS, GEMINI_TOOLS, geminiGeneratePolicy as policy } from './gemini-generate.js';

const functions = { functionDeclarations: [{ name: 'run_shell_command', parameters: { type: 'OBJECT' } }] };
const body = (extra: Record<string, unknown>): Record<string, unknown> => ({ contents: [{ role: 'user', parts: [{ text: 'fix it' }] }], ...extra });
const snake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const entries = GEMINI_TOOLS.flatMap((rule) => rule.examples.map((example) => [rule.name, rule.runs, example] as const));

describe('the Gemini generateContent tool table', () => {
  it('withholds exactly the tools the provider runs', () => {
    expect(GEMINI_TOOLS.filter((r) => r.runs === 'provider').map((r) => r.name)).toEqual(['googleSearch', 'googleSearchRetrieval', 'urlContext', 'codeExecution', 'googleMaps', 'fileSearch', 'enterpriseWebSearch', 'retrieval', 'parallelAiSearch', 'mcpServers']);
  });

  it.each(entries.filter(([, runs]) => runs === 'provider'))('strips %s, in either spelling, and relays the rest', (name, _runs, tool) => {
    for (const spelled of [tool, { [snake(name)]: tool[name] }]) {
      const seen = policy.inspect(body({ tools: [functions, spelled] }));
      expect(seen.refusal).toBeNull();
      expect(seen.body.tools).toEqual([functions]);
      expect(seen.items).toEqual([expect.objectContaining({ what: expect.stringContaining(name), action: 'stripped' })]);
    }
  });

  it.each(entries.filter(([, runs]) => runs === 'provider'))('strips %s from a Tool that also declares functions, keeping the functions', (name, _runs, tool) => {
    const seen = policy.inspect(body({ tools: [{ ...functions, ...tool }] }));
    expect(seen.body.tools).toEqual([functions]);
    expect(seen.items).toEqual([expect.objectContaining({ where: `tools[0].${name}`, action: 'stripped' })]);
  });

  it.each(entries.filter(([, runs]) => runs === 'client'))('keeps %s, which the harness runs', (_name, _runs, tool) => {
    const request = body({ tools: [tool] });
    expect(policy.inspect(request)).toEqual({ body: request, items: [], refusal: null });
  });

  it('strips the {googleSearch} Gemini CLI 0.61 sends for google_web_search, leaving no tools', () => {
    const seen = policy.inspect(body({ tools: [{ googleSearch: {} }] }));
    expect(seen.body.tools).toEqual([]);
    expect(seen.refusal).toBeNull();
  });

  it('refuses a tool key no entry knows', () => {
    expect(policy.inspect(body({ tools: [{ webBrowse: {} }] })).items).toEqual([{ what: 'unknown tool webBrowse', where: 'tools[0].webBrowse', action: 'refused' }]);
  });

  it.each(GEMINI_FIELDS.map((rule) => [rule.field, rule] as const))('refuses the request field %s, in either spelling', (field, rule) => {
    expect(policy.inspect(body({ [field]: rule.example })).refusal).toContain(field);
    expect(policy.inspect(body({ [snake(field)]: rule.example })).refusal).toContain(snake(field));
  });

  it.each([
    ...GEMINI_INPUTS.map((rule) => [rule.name, rule.example] as const),
    ['a Files API file', { fileData: { fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc', mimeType: 'text/plain' } }] as const,
    ['a gs:// file in snake_case', { file_data: { file_uri: 'gs://bucket/answer.py', mime_type: 'text/plain' } }] as const,
  ])('refuses %s, in a user turn, the system instruction and a function response', (_name, part) => {
    expect(policy.inspect(body({ contents: [{ role: 'user', parts: [{ text: 'read' }, part] }] })).refusal).toMatch(/contents\[0\]\.parts\[1\]/);
    expect(policy.inspect(body({ systemInstruction: { parts: [part] } })).items).toHaveLength(1);
    const response = { functionResponse: { name: 'read_file', response: { output: 'x' }, parts: [part] } };
    expect(policy.inspect(body({ contents: [{ role: 'user', parts: [response] }] })).items).toEqual([expect.objectContaining({ where: 'contents[0].parts[0].functionResponse.parts[0]', action: 'refused' })]);
  });

  it('keeps inline data and function arguments or responses that mention fileData', () => {
    const request = body({
      contents: [
        { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
        { role: 'model', parts: [{ functionCall: { name: 'write_file', args: { fileData: { fileUri: 'https://e.com' } } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'write_file', response: { fileData: { fileUri: 'https://e.com' } } } }] },
      ],
    });
    expect(policy.inspect(request).items).toEqual([]);
  });

  it('applies the table to a countTokens generateContentRequest', () => {
    const seen = policy.inspect({ generateContentRequest: body({ model: 'models/gemini-2.5-pro', tools: [functions, { urlContext: {} }] }) });
    expect(seen.items).toEqual([expect.objectContaining({ where: 'generateContentRequest.tools[1].urlContext', action: 'stripped' })]);
    expect((seen.body.generateContentRequest as { tools: unknown[] }).tools).toEqual([functions]);
  });
});

describe('signs in a Gemini answer that Google ran a tool', () => {
  it.each([
    ['grounding metadata', { candidates: [{ content: { parts: [{ text: 'x' }] }, groundingMetadata: { webSearchQueries: ['q'] } }] }, 'candidates[0].groundingMetadata'],
    ['URL context metadata in snake_case', { candidates: [{ url_context_metadata: { url_metadata: [{ retrieved_url: 'https://e.com' }] } }] }, 'candidates[0].urlContextMetadata'],
    ['executed code', { candidates: [{ content: { parts: [{ executableCode: { code: 'print(1)' } }, { codeExecutionResult: { output: '1' } }] } }] }, 'part executableCode'],
    ['tool-use prompt tokens', { candidates: [], usageMetadata: { promptTokenCount: 10, toolUsePromptTokenCount: 300 } }, 'usageMetadata.toolUsePromptTokenCount 300'],
    ['one item of a JSON-array stream', [{ candidates: [{ groundingMetadata: { groundingChunks: [{}] } }] }], 'candidates[0].groundingMetadata'],
  ])('%s', (_what, payload, sign) => {
    expect(policy.usedTools(payload)).toContain(sign);
  });

  it('finds none in a function call answer', () => {
    expect(policy.usedTools({ candidates: [{ content: { parts: [{ functionCall: { name: 'replace', args: {} } }] }, groundingMetadata: {} }], usageMetadata: { toolUsePromptTokenCount: 0 } })).toEqual([]);
  });
});
