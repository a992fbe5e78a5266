import { isIdOf, type IdKind } from '@payhook/contracts';

/** Position after the last item of a page, in list order (createdAt desc, id desc). */
export interface KeysetCursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor(cursor: KeysetCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.toISOString(), cursor.id])).toString('base64url');
}

/**
 * Null for anything that is not shaped like a cursor of this kind. The caller then checks that
 * the position names a real row of the caller's, which no forged cursor can.
 */
export function decodeCursor(text: string, kind: IdKind): KeysetCursor | null {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== 2) return null;
    const [createdAt, id] = decoded as unknown[];
    if (typeof createdAt !== 'string' || typeof id !== 'string' || !isIdOf(kind, id)) return null;
    const date = new Date(createdAt);
    if (Number.isNaN(date.getTime()) || date.toISOString() !== createdAt) return null;
    return { createdAt: date, id };
  } catch {
    return null;
  }
}
