import { IsOptional, IsString, Matches } from 'class-validator';

/** `limit` and `cursor`, shared by every list query. Values stay strings; the service parses them. */
export class PageQueryDto {
  @IsOptional()
  @IsString()
  @Matches(/^(100|[1-9][0-9]?)$/, { message: 'must be a whole number from 1 to 100' })
  limit?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,512}$/, { message: 'is not a cursor this API returned' })
  cursor?: string;
}
