/** Bodies nest objects and arrays this deep at most; the API's own shapes need 3. */
export const MAX_JSON_DEPTH = 32;

/**
 * `too-deep` names the field that nests too deep by its first two keys (`metadata.note`), or one when
 * the nesting is in arrays (`items`); no path when the body itself is the array that nests.
 */
export type JsonShapeProblem = { kind: 'too-deep'; path?: string } | { kind: 'duplicate-key'; path: string };

interface Frame {
  /** Keys seen so far; null for an array. */
  keys: Set<string> | null;
  path: string;
  expectingKey: boolean;
  lastKey?: string;
}

/**
 * What JSON.parse lets pass but a payment API must refuse, in one pass over valid JSON text: nesting
 * deeper than MAX_JSON_DEPTH (it overflows the stack of recursive code downstream) and an object that
 * names a key twice (`"amount":100,"amount":5` would silently mean 5). Keys are compared after
 * unescaping, so `"a"` and `"\u0061"` are the same key. Each names the field at fault, so that a 400
 * says which field to fix (`metadata.note`). Pure.
 */
export function jsonShapeProblem(text: string): JsonShapeProblem | null {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    const top = stack.at(-1);
    if (char === '{' || char === '[') {
      if (stack.length === MAX_JSON_DEPTH) {
        const path = (stack[2] ?? stack[1])?.path;
        return path ? { kind: 'too-deep', path } : { kind: 'too-deep' };
      }
      const path = top?.keys && top.lastKey !== undefined ? join(top.path, top.lastKey) : (top?.path ?? '');
      stack.push({ keys: char === '{' ? new Set() : null, path, expectingKey: char === '{' });
    } else if (char === '}' || char === ']') {
      stack.pop();
    } else if (char === ',' && top?.keys) {
      top.expectingKey = true;
    } else if (char === '"') {
      const end = endOfString(text, i);
      if (top?.keys && top.expectingKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) return { kind: 'duplicate-key', path: join(top.path, key) };
        top.keys.add(key);
        top.lastKey = key;
        top.expectingKey = false;
      }
      i = end;
    }
  }
  return null;
}

/** The index of the quote that closes the string opening at `start`. */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
