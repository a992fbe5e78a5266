import { ApiProperty } from '@nestjs/swagger';
import { API_KEY_MODES, type ApiKeyMode } from '@payhook/contracts';
import { IsDefined, IsIn } from 'class-validator';

export class IssueApiKeyRequestDto {
  @ApiProperty({ enum: API_KEY_MODES })
  @IsDefined()
  @IsIn(API_KEY_MODES, { message: 'must be "test" or "live"' })
  mode!: ApiKeyMode;
}
