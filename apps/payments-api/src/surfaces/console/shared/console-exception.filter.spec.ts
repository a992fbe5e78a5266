import { Logger, type ArgumentsHost } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleExceptionFilter } from './console-exception.filter';

function hostFor(response: Partial<Response>): ArgumentsHost {
  const request = { method: 'GET', path: '/console/settlements/export' } as Request;
  return {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ArgumentsHost;
}

describe('ConsoleExceptionFilter', () => {
  afterEach(() => jest.restoreAllMocks());

  it('logs a failure after the headers went out (a CSV cut off mid-download) and writes nothing more', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const response = { headersSent: true, status: jest.fn(), send: jest.fn(), set: jest.fn() };

    new ConsoleExceptionFilter().catch(new Error('read replica went away'), hostFor(response));

    expect(logged).toHaveBeenCalledWith(
      expect.stringContaining('GET /console/settlements/export failed'),
      expect.stringContaining('read replica went away'),
    );
    expect(response.status).not.toHaveBeenCalled();
    expect(response.send).not.toHaveBeenCalled();
  });
});
