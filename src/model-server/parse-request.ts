import { z } from 'zod';
import type { JsonSchema, OfferedTool, ParsedRequest, WireFormat } from './types.js';

const Named = z.looseObject({ name: z.string() });
const Schema = z.record(z.string(), z.unknown()).nullish().catch(null);
const list = <T extends z.ZodType>(item: T) => z.array(z.unknown()).nullish().catch(null).transform((items) => pick(items ?? [], item));

const AnthropicBody = z.looseObject({
  tools: list(z.looseObject({ name: z.string(), input_schema: Schema })),
  messages: list(z.looseObject({ role: z.string(), content: z.unknown() })),
});
const ResponsesBody = z.looseObject({
  tools: list(z.looseObject({ type: z.string(), name: z.string(), parameters: Schema })),
  input: list(z.looseObject({ type: z.string(), name: z.string().optional() })),
});
const ChatBody = z.looseObject({
  tools: list(z.looseObject({ function: z.looseObject({ name: z.string(), parameters: Schema }) })),
  messages: list(z.looseObject({ role: z.string(), tool_calls: list(z.looseObject({ function: Named })) })),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish().catch(null),
});
const GeminiBody = z.looseObject({
  tools: list(z.looseObject({ functionDeclarations: list(z.looseObject({ name: z.string(), parameters: Schema, parametersJsonSchema: Schema })) })),
  contents: list(z.looseObject({ role: z.string().nullish(), parts: list(z.looseObject({ functionCall: Named })) })),
});
const Common = z.looseObject({ model: z.string().nullish().catch(null), stream: z.boolean().nullish().catch(null) });

// Structured-output requests, per format: the schema sits in a different place in each.
const Format = z.looseObject({ type: z.string(), schema: Schema, json_schema: z.looseObject({ schema: Schema }).nullish().catch(null) });
const JsonWanted = z.looseObject({
  generationConfig: z.looseObject({ responseMimeType: z.string().nullish(), responseJsonSchema: Schema, responseSchema: Schema }).nullish().catch(null),
  response_format: Format.nullish().catch(null),
  text: z.looseObject({ format: Format.nullish().catch(null) }).nullish().catch(null),
  output_format: Format.nullish().catch(null),
  output_config: z.looseObject({ format: Format.nullish().catch(null) }).nullish().catch(null),
});

/**
 * Reads a generation request into what the scripts decide on: the tools offered (with their
 * argument schemas) and the tool calls the assistant already made. Lenient: parts that do not
 * have the expected shape are skipped, so a strange body gets an answer, not a crash.
 */
export function parseRequest(format: WireFormat, url: string, body: unknown): ParsedRequest {
  const common = Common.safeParse(body).data ?? { model: null, stream: null };
  const gemini = format === 'gemini-generate' ? /\/models\/([^/:]+):(stream)?generatecontent/i.exec(decodeURIComponent(url)) : null;
  const streamed = gemini ? gemini[2] !== undefined : common.stream === true;
  const base = {
    format,
    model: gemini?.[1] ?? common.model ?? null,
    streamed,
    jsonArrayStream: gemini !== null && streamed && !/[?&]alt=sse\b/.test(url),
    includeUsage: false,
    ...jsonSchemaOf(body),
  };
  switch (format) {
    case 'anthropic-messages': {
      const b = AnthropicBody.parse(body ?? {});
      const tools = b.tools.map((t) => functionTool(t.name, t.input_schema));
      const toolCalls = b.messages.filter((m) => m.role === 'assistant').flatMap((m) => pick(asArray(m.content), ToolUse)).map((c) => c.name);
      return { ...base, tools, toolCalls };
    }
    case 'openai-responses': {
      const b = ResponsesBody.parse(body ?? {});
      const tools = b.tools.map((t) => (t.type === 'custom' ? { name: t.name, kind: 'custom' as const, schema: null } : functionTool(t.name, t.parameters)));
      const toolCalls = b.input.filter((i) => CALL_ITEMS.has(i.type)).map((i) => i.name ?? i.type);
      return { ...base, tools, toolCalls };
    }
    case 'openai-chat': {
      const b = ChatBody.parse(body ?? {});
      const tools = b.tools.map((t) => functionTool(t.function.name, t.function.parameters));
      const toolCalls = b.messages.filter((m) => m.role === 'assistant').flatMap((m) => m.tool_calls.map((c) => c.function.name));
      return { ...base, includeUsage: b.stream_options?.include_usage === true, tools, toolCalls };
    }
    case 'gemini-generate': {
      const b = GeminiBody.parse(body ?? {});
      const tools = b.tools.flatMap((t) => t.functionDeclarations).map((d) => functionTool(d.name, d.parametersJsonSchema ?? d.parameters));
      const toolCalls = b.contents.filter((c) => c.role === 'model').flatMap((c) => c.parts.map((p) => p.functionCall.name));
      return { ...base, tools, toolCalls };
    }
  }
}

/** `{jsonSchema}` when the request asks for structured output, else nothing. */
function jsonSchemaOf(body: unknown): { jsonSchema?: JsonSchema | null } {
  const b = JsonWanted.safeParse(body).data;
  if (b === undefined) return {};
  const config = b.generationConfig;
  if (config?.responseMimeType === 'application/json') return { jsonSchema: (config.responseJsonSchema ?? config.responseSchema ?? null) as JsonSchema | null };
  const format = b.response_format ?? b.text?.format ?? b.output_format ?? b.output_config?.format;
  if (format?.type === 'json_schema') return { jsonSchema: (format.schema ?? format.json_schema?.schema ?? null) as JsonSchema | null };
  return format?.type === 'json_object' ? { jsonSchema: null } : {};
}

/** Responses input items that are calls the model made. */
const CALL_ITEMS = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
const ToolUse = z.looseObject({ type: z.literal('tool_use'), name: z.string() });

function functionTool(name: string, schema: Record<string, unknown> | null | undefined): OfferedTool {
  return { name, kind: 'function', schema: (schema ?? null) as JsonSchema | null };
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The items that match `schema`, parsed; the others are skipped. */
function pick<T extends z.ZodType>(items: unknown[], schema: T): Array<z.infer<T>> {
  return items.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data as z.infer<T>] : [];
  });
}
