/**
 * Builders of the response shapes as JSON Schema components (OpenAPI 3.1). Each feature keeps its
 * own in a `*.schemas.ts` beside its controllers, built from the contract's constants so an enum
 * cannot fall behind the code; the docs surface assembles them. The request shapes come from the
 * DTOs' decorators.
 */
export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const instant: Schema = { type: 'string', format: 'date-time' };
export const nullable = (schema: Schema): Schema => ({ oneOf: [schema, { type: 'null' }] });
export const object = (properties: Record<string, Schema>, optional: string[] = []): Schema => ({
  type: 'object',
  properties,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
  additionalProperties: false,
});
export const id = (prefix: string): Schema => ({ type: 'string', pattern: `^${prefix}_` });
export const text: Schema = { type: 'string' };
export const calendarDate: Schema = { type: 'string', format: 'date' };

/** `{data: <schema>}` */
export const dataOf = (name: string): Schema => object({ data: ref(name) });

/** `{data: [<schema>]}`: a short, whole list */
export const dataArrayOf = (name: string): Schema => object({ data: { type: 'array', items: ref(name) } });

/** `{data: [<schema>], hasMore, nextCursor}` */
export const listOf = (name: string): Schema =>
  object({
    data: { type: 'array', items: ref(name) },
    hasMore: { type: 'boolean' },
    nextCursor: nullable({ type: 'string' }),
  });
