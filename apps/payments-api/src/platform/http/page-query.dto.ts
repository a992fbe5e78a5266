import { IsOptional, IsString, Matches } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';

/** `limit` and `cursor`, shared by every list query. Values stay strings; the service parses them. */
export class PageQueryDto {
  @ApiPropertyOptional({ description: 'page size, 1 to 100 (default 20)', example: '20' })
  @IsOptional()
  @IsString()
  @Matches(/^(100|[1-9][0-9]?)$/, { message: 'must be a whole number from 1 to 100' })
  limit?: string;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,512}$/, { message: 'is not a cursor this API returned' })
  cursor?: string;
}
