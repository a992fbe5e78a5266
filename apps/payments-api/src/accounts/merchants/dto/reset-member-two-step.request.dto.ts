import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsEmail, MaxLength } from 'class-validator';

export class ResetMemberTwoStepRequestDto {
  @ApiProperty({ format: 'email', maxLength: 254, description: "the member's console login" })
  @IsDefined()
  @IsEmail({}, { message: 'must be an email address' })
  @MaxLength(254, { message: 'must be an email address' })
  email!: string;
}
