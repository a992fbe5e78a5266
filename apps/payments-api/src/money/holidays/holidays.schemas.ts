import { calendarDate, object, text, type Schema } from '../../platform/openapi/schema-builders';

/** A non-banking day, with its example recorded from a real run of payhook. */
export const HOLIDAY_SCHEMAS: Record<string, Schema> = {
  Holiday: {
    ...object({ date: calendarDate, name: text }),
    examples: [{ date: '2026-10-02', name: 'Temporary holiday' }],
  },
};
