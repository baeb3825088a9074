import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { WireFormat } from '../../types.js';
import { endpointOf } from './endpoints.js';
import { isRecord } from './inspect-parts.js';
import { refusalBody } from './refusal-body.js';
import { searchModelOf, TOOL_POLICIES } from './tool-policies.js';
import type { PolicyItem } from './types.js';

/** A request as the policy reads it. */
export interface PolicyRequest {
  readonly method: string;
  /** Path and query as the client sent them. */
  readonly path: string;
  /** The API family the request was routed by (the shape of a refusal of an endpoint). */
  readonly route: WireFormat | null;
  /** The whole body (empty for none). */
  readonly body: Buffer;
  /** The body's `Content-Encoding`, if any. */
  readonly contentEncoding: string | undefined;
  /** `network: model-api+web`: provider tools and URL inputs pass (and are recorded as `allowed`). */
  readonly openWeb: boolean;
}

/** What to do with a request: relay it (its body, rewritten when something was stripped), or refuse it. */
export type PolicyVerdict =
  | {
      readonly kind: 'relay';
      /** The body to send, or null to send the client's bytes unchanged (with their encoding). */
      readonly body: Buffer | null;
      readonly items: PolicyItem[];
    }
  | {
      readonly kind: 'refuse';
      readonly status: 400 | 404 | 413 | 415;
      /** The proxy's sentence, as the client reads it in the error body and the record keeps it. */
      readonly message: string;
      /** The error body, in the request's wire format's shape. */
      readonly body: string;
      readonly items: PolicyItem[];
    };

const PREFIX = 'bakeoff closed web';
const WHY = 'the model API may fetch nothing for the agent: provider-run tools, URL inputs and stored files are not relayed (decision 013)';

/**
 * The closed-web policy, applied to every request before it is relayed (decision 013): an
 * endpoint other than generation, token counting or a model listing is refused (404); a
 * generation body is parsed and its wire format's tables applied — provider-tool declarations
 * are stripped, and a request that forces one, references a URL or a stored file, names a tool
 * type no table knows or a model that searches by itself is refused (400). A body the policy
 * cannot read (not JSON, an encoding it cannot decode) is refused too: what it cannot read, it
 * does not relay. On the open web the body passes unchanged and every item is recorded as
 * `allowed`; the endpoint table holds there too. Pure.
 */
export function applyToolPolicy(request: PolicyRequest): PolicyVerdict {
  const pathOnly = request.path.split('?', 1)[0]!;
  const endpoint = endpointOf(request.method, request.path);
  if (endpoint === null) {
    const what = `endpoint ${request.method.toUpperCase()} ${pathOnly}`;
    return refuse(request.route, 404, `${what} is not relayed: the proxy relays generation, token counting and model listings only`, [{ what, where: 'path', action: 'refused' }]);
  }
  if (endpoint.kind === 'plain') return { kind: 'relay', body: null, items: [] };
  const format = endpoint.format;
  if (request.body.length === 0) return { kind: 'relay', body: null, items: [] };
  const text = decode(request.body, request.contentEncoding);
  if ('error' in text) return refuse(format, 415, text.error, []);
  let data: unknown;
  try {
    data = JSON.parse(text.value);
  } catch {
    return refuse(format, 400, `the ${format} request body is not JSON, so the tool policy cannot read it`, []);
  }
  if (!isRecord(data)) return refuse(format, 400, `the ${format} request body is not a JSON object, so the tool policy cannot read it`, []);
  const inspection = TOOL_POLICIES[format].inspect(data);
  const items = [...inspection.items];
  const model = modelOf(format, request.path, data);
  const searcher = searchModelOf(model);
  if (searcher !== null) items.push({ what: `model ${model} (${searcher.name}: searches the web by itself)`, where: format === 'gemini-generate' ? 'path' : 'model', action: 'refused' });
  if (request.openWeb) return { kind: 'relay', body: null, items: items.map((i) => ({ ...i, action: 'allowed' })) };
  const refusal = searcher !== null ? `model ${JSON.stringify(model)} searches the web by itself (${searcher.name})` : inspection.refusal;
  if (refusal !== null) return refuse(format, 400, refusal, items.map((i) => ({ ...i, action: 'refused' })));
  if (inspection.body === data) return { kind: 'relay', body: null, items };
  return { kind: 'relay', body: Buffer.from(JSON.stringify(inspection.body)), items };
}

function refuse(format: WireFormat | null, status: 400 | 404 | 413 | 415, reason: string, items: PolicyItem[]): PolicyVerdict {
  const message = `${PREFIX}: ${reason}; ${WHY}`;
  return { kind: 'refuse', status, message, body: refusalBody(format, status, message), items };
}

/** The model a request names: Gemini's URL path, else the body's `model`. */
function modelOf(format: WireFormat, path: string, body: Record<string, unknown>): string | null {
  if (format === 'gemini-generate') {
    const m = /\/models\/([^/:?#]+)(?::|%3a)/i.exec(path.split('?', 1)[0]!);
    return m ? decodeURIComponent(m[1]!) : null;
  }
  return typeof body.model === 'string' ? body.model : null;
}

/** The body as text, decoded per its `Content-Encoding`; zstd and others the proxy cannot decode are an error. */
function decode(body: Buffer, encoding: string | undefined): { value: string } | { error: string } {
  const name = (encoding ?? 'identity').trim().toLowerCase();
  try {
    if (name === '' || name === 'identity') return { value: body.toString('utf8') };
    if (name === 'gzip' || name === 'x-gzip') return { value: gunzipSync(body).toString('utf8') };
    if (name === 'deflate') return { value: inflateSync(body).toString('utf8') };
    if (name === 'br') return { value: brotliDecompressSync(body).toString('utf8') };
  } catch (error) {
    return { error: `the request body's ${name} encoding could not be decoded (${(error as Error).message}), so the tool policy cannot read it` };
  }
  return { error: `the request body is compressed with ${name}, which the tool policy cannot read` };
}
