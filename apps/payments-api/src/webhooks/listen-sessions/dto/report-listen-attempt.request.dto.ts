import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsInt, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';

/** The first 1 KiB of an answer is what an attempt keeps. */
export const MAX_REPORTED_TEXT = 1024;
/** Longer than any local handler should take; the CLI gives up well before. */
const MAX_DURATION_MS = 600_000;

/**
 * POST /v1/listen-sessions/{id}/attempts: what the local handler answered when the CLI forwarded an
 * event. A status, or the error that kept one from coming, or both.
 */
export class ReportListenAttemptRequestDto {
  @ApiProperty({ pattern: '^evt_[0-9A-Za-z]{20,64}$' })
  @IsDefined()
  @IsString()
  @Matches(/^evt_[0-9A-Za-z]{20,64}$/, { message: 'must be an event id (evt_…)' })
  eventId!: string;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 100, maximum: 599 })
  @ValidateIf((_, value: unknown) => value !== undefined && value !== null)
  @IsInt()
  @Min(100)
  @Max(599)
  responseStatus?: number | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: MAX_REPORTED_TEXT })
  @ValidateIf((_, value: unknown) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(MAX_REPORTED_TEXT)
  responseBody?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: MAX_REPORTED_TEXT })
  @ValidateIf((_, value: unknown) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(MAX_REPORTED_TEXT)
  error?: string | null;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_DURATION_MS })
  @IsDefined()
  @IsInt()
  @Min(0)
  @Max(MAX_DURATION_MS)
  durationMs!: number;
}
