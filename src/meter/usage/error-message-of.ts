import { z } from 'zod';

// `{"error":{"message":…}}` (OpenAI, OpenRouter, Gemini) and `{"type":"error","error":{…}}` (Anthropic).
const ApiError = z.looseObject({
  error: z.looseObject({ message: z.string().optional(), type: z.string().optional(), status: z.string().optional() }),
});

/** The message of an API error payload, or null when the payload is not an error. */
export function errorMessageOf(data: unknown): string | null {
  const parsed = ApiError.safeParse(data);
  if (!parsed.success) return null;
  const { message, type, status } = parsed.data.error;
  return [type ?? status, message].filter((s) => s !== undefined && s !== '').join(': ') || 'unknown error';
}
