import { plainToInstance, type ClassConstructor } from 'class-transformer';

/** By DTO class, the properties whose value is kept as JSON.parse made it. */
const KEPT = new WeakMap<object, Set<string>>();

/**
 * A DTO property whose value is kept exactly as parsed: class-transformer never walks it. Its walk
 * copies objects key by key, dropping `__proto__` and `constructor`, and guesses a class from a
 * `constructor` key given as data (and throws): fine for the API's own shapes, wrong for an object
 * whose keys are the merchant's (metadata). Its validators see the parsed value.
 */
export function KeptAsParsed(): PropertyDecorator {
  return (target, property) => {
    const kept = KEPT.get(target.constructor) ?? new Set<string>();
    kept.add(String(property));
    KEPT.set(target.constructor, kept);
  };
}

function keptProperties(dto: object): string[] {
  const kept: string[] = [];
  for (let type: unknown = dto; typeof type === 'function' && type !== Function.prototype;) {
    kept.push(...(KEPT.get(type) ?? []));
    type = Object.getPrototypeOf(type);
  }
  return kept;
}

/**
 * `input` as an instance of the DTO class for validation: class-transformer's instance, with each
 * property kept as parsed set to the parsed value itself. `input` has only the DTO's own keys when
 * the request pipe calls this (it refuses any other first).
 */
export function toDtoInstance<T extends object>(dto: ClassConstructor<T>, input: object): T {
  const kept = keptProperties(dto).filter((property) => Object.hasOwn(input, property));
  if (kept.length === 0) return plainToInstance(dto, input, { enableImplicitConversion: false });
  const rest = Object.fromEntries(Object.entries(input).filter(([key]) => !kept.includes(key)));
  const instance = plainToInstance(dto, rest, { enableImplicitConversion: false });
  for (const property of kept)
    (instance as Record<string, unknown>)[property] = (input as Record<string, unknown>)[property];
  return instance;
}
