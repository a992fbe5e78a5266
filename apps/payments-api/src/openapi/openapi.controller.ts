import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController, type OpenAPIObject } from '@nestjs/swagger';
import type { Response } from 'express';
import { newNonce, sendHtml } from '../html/html-response';
import { renderDocsPage } from './docs-page.view';

export const MERCHANT_OPENAPI = Symbol('MERCHANT_OPENAPI');

/** The reference, without auth: it describes the API, it holds nothing of anyone's. */
@ApiExcludeController()
@Controller()
export class OpenApiController {
  constructor(@Inject(MERCHANT_OPENAPI) private readonly document: { current?: OpenAPIObject }) {}

  @Get('v1/openapi.json')
  json(): OpenAPIObject | undefined {
    return this.document.current;
  }

  /** The same document as a page a person reads (server-rendered, no script). */
  @Get('docs')
  page(@Res() response: Response): void {
    const nonce = newNonce();
    sendHtml(response, 200, this.document.current ? renderDocsPage(this.document.current, nonce) : '', nonce);
  }
}
