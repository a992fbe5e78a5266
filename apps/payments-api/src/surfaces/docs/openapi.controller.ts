import { Controller, Get, Inject, NotFoundException, Req, Res, UseGuards } from '@nestjs/common';
import { AdminGuard } from '@payhook/auth';
import { ApiExcludeController, type OpenAPIObject } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { sendPage } from '../../platform/html/html-response';
import { renderDocsPage } from './docs-page.view';
import { renderGuidePage } from './guide-page.view';
import { renderHomePage } from './home-page.view';
import { merchantGuide } from './merchant-guide';

export const OPENAPI_DOCUMENTS = Symbol('OPENAPI_DOCUMENTS');

/** Filled by app.setup once the app exists: generating a document needs the whole app. */
export interface OpenApiDocuments {
  merchant?: OpenAPIObject;
  admin?: OpenAPIObject;
}

/** The merchant reference without auth (it describes the API, it holds nothing of anyone's); the operator's behind its token. */
@ApiExcludeController()
@Controller()
export class OpenApiController {
  constructor(@Inject(OPENAPI_DOCUMENTS) private readonly documents: OpenApiDocuments) {}

  @Get('v1/openapi.json')
  merchant(): OpenAPIObject | undefined {
    return this.documents.merchant;
  }

  @Get('admin/v1/openapi.json')
  @UseGuards(AdminGuard)
  admin(): OpenAPIObject | undefined {
    return this.documents.admin;
  }

  /** The same document as a page a person reads (server-rendered, no script). */
  @Get('docs')
  page(@Res() response: Response): void {
    const document = this.documents.merchant;
    sendPage(response, 200, (nonce) => (document ? renderDocsPage(document, nonce, merchantGuide() !== null) : ''));
  }

  /** docs/merchant-guide.md as a page (the repository keeps the Markdown). */
  @Get('docs/guide')
  guide(@Res() response: Response): void {
    const text = merchantGuide();
    if (text === null) throw new NotFoundException();
    sendPage(response, 200, (nonce) => renderGuidePage(text, nonce));
  }

  /**
   * `/` for a person is a page that leads to the reference and the console; a client that asks for
   * JSON keeps the JSON 404 of any unknown path.
   */
  @Get()
  home(@Req() request: Request, @Res() response: Response): void {
    if (request.accepts(['html', 'json']) !== 'html') throw new NotFoundException();
    sendPage(response, 200, (nonce) => renderHomePage(nonce, merchantGuide() !== null));
  }
}
