import { ERROR_CODES } from '@payhook/contracts';
import { object, ref, type Schema } from './schema-builders';

/**
 * The one error shape every route answers, with its example recorded from a real answer (JSON
 * Schema's `examples`, as OpenAPI 3.1 reads it; the openapi e2e spec holds it to its schema).
 */
export const ERROR_SCHEMAS: Record<string, Schema> = {
  Error: {
    ...object({
      error: object(
        {
          type: { type: 'string' },
          code: { enum: Object.keys(ERROR_CODES) },
          message: { type: 'string' },
          param: { type: 'string', description: 'the request field, header or parameter at fault' },
          requestId: { type: 'string' },
        },
        ['param'],
      ),
    }),
    description:
      'The one error shape of every error response; the codes and when each comes: docs/merchant-guide.md, Errors.',
    examples: [
      {
        error: {
          type: 'authentication_error',
          code: 'api_key_invalid',
          message: 'The API key is unknown or has been revoked.',
          requestId: 'req_J3b1eXyFpVagCHkMQjy1',
        },
      },
    ],
  },
};

export const errorRef = ref('Error');
