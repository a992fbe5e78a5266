export interface DataEnvelope<T> {
  data: T;
}

export interface ListEnvelope<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}
