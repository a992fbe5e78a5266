import { jsonShapeProblem, MAX_JSON_DEPTH } from './json-shape';

describe('jsonShapeProblem', () => {
  it("accepts the API's own bodies", () => {
    expect(
      jsonShapeProblem('{"orderId":"o-1","amount":15000,"metadata":{"a":[1,{"b":2}],"c":"x,\\"y\\":{"}}'),
    ).toBeNull();
    expect(jsonShapeProblem('[{"a":1},{"a":1}]')).toBeNull(); // the same key in two objects
  });

  it('names a key given twice, with its path', () => {
    expect(jsonShapeProblem('{"amount":100,"amount":5}')).toEqual({ kind: 'duplicate-key', path: 'amount' });
    expect(jsonShapeProblem('{"a":{"b":1,"c":2,"b":3}}')).toEqual({ kind: 'duplicate-key', path: 'a.b' });
  });

  it('sees through escapes: "a" and "\\u0061" are one key', () => {
    expect(jsonShapeProblem('{"a":1,"\\u0061":2}')).toEqual({ kind: 'duplicate-key', path: 'a' });
  });

  it('does not take a string value for a key', () => {
    expect(jsonShapeProblem('{"a":"a","b":"a"}')).toBeNull();
  });

  it('refuses nesting deeper than the bound, arrays and objects alike', () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(jsonShapeProblem(deep(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonShapeProblem(deep(MAX_JSON_DEPTH + 1))).toEqual({ kind: 'too-deep' });
    expect(jsonShapeProblem(deep(30_000))).toEqual({ kind: 'too-deep' });
    expect(jsonShapeProblem('{"a":'.repeat(40) + '1' + '}'.repeat(40))).toEqual({ kind: 'too-deep', path: 'a.a' });
  });

  it('names the field that nests too deep by its first two keys, or one in arrays', () => {
    const deepValue = '{"b":'.repeat(40) + '1' + '}'.repeat(40);
    expect(jsonShapeProblem(`{"orderId":"o-1","metadata":{"note":${deepValue}}}`)).toEqual({
      kind: 'too-deep',
      path: 'metadata.note',
    });
    expect(jsonShapeProblem(`{"items":${'['.repeat(40)}${']'.repeat(40)}}`)).toEqual({
      kind: 'too-deep',
      path: 'items',
    });
  });
});
