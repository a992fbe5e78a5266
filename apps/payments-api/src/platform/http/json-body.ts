import { keepBodyError } from '@payhook/auth';
import { PayhookError } from '@payhook/contracts';
import { json, urlencoded, type NextFunction, type Request, type Response } from 'express';
import { jsonShapeProblem, MAX_JSON_DEPTH } from './json-shape';

export const MAX_BODY_BYTES = 64 * 1024;

const RAW_BODY = Symbol('rawBody');
type WithRawBody = Request & { [RAW_BODY]?: Buffer };

const parseJson = json({
  limit: MAX_BODY_BYTES,
  strict: true,
  type: () => true,
  // Kept for the shape check once the body parsed: JSON.parse lets duplicate keys and any depth pass.
  verify: (request, _response, raw) => void ((request as WithRawBody)[RAW_BODY] = raw),
});
/** The payment screen's buttons, the escrow buyer's page and the merchant console's forms are plain HTML forms. */
const parseForm = urlencoded({ limit: '8kb', extended: false, type: () => true });

/**
 * Parses JSON bodies but does not answer on failure: the error is kept on the request and raised by
 * the guards once they have authenticated the caller (keepBodyError), so a caller without a valid key
 * learns 401 before anything about its body.
 */
export function jsonBodyMiddleware(request: Request, response: Response, next: NextFunction): void {
  if (!hasBody(request)) return next();
  if (request.path.startsWith('/p/') || request.path.startsWith('/e/') || request.path.startsWith('/console/')) {
    return parseForm(request, response, () => next());
  }
  if (!isJson(request.headers['content-type'])) {
    keepBodyError(
      request,
      new PayhookError('unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".'),
    );
    // Drain the body so the connection can be reused.
    request.resume();
    return next();
  }
  parseJson(request, response, (error?: unknown) => {
    const parsed = request as WithRawBody;
    const bodyError = error ? toBodyError(error) : parsed[RAW_BODY] && shapeError(parsed[RAW_BODY].toString('utf8'));
    if (bodyError) keepBodyError(request, bodyError);
    delete parsed[RAW_BODY];
    next();
  });
}

function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/** Valid JSON that still must not reach validation: too deep, or a key given twice. */
function shapeError(text: string): PayhookError | undefined {
  const problem = jsonShapeProblem(text);
  if (!problem) return undefined;
  if (problem.kind === 'too-deep') {
    const where = problem.path ? ` (in ${problem.path})` : '';
    return new PayhookError(
      'parameter_invalid',
      `The body nests objects and arrays more than ${MAX_JSON_DEPTH} deep${where}.`,
      problem.path,
    );
  }
  return new PayhookError('parameter_invalid', `The body gives ${problem.path} more than once.`, problem.path);
}

function toBodyError(error: unknown): PayhookError {
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large') {
    return new PayhookError('payload_too_large', `The body is larger than ${MAX_BODY_BYTES / 1024} KiB.`);
  }
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return new PayhookError('unsupported_media_type', 'Send the body as UTF-8 JSON.');
  }
  return new PayhookError('body_invalid_json', 'The body is not valid JSON.');
}
