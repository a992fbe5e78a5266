import { Header } from '@nestjs/common';

/**
 * For answers that carry a secret or a key (a signing secret, a new API key, a voucher PIN): no
 * browser, proxy or CDN may keep a copy. Server-rendered pages send it already (html-response.ts).
 */
export const NoStore = () => Header('Cache-Control', 'no-store');
