import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsEmail, IsString, Length, MaxLength } from 'class-validator';

/** A console password's length, here once: the operator's approval sets one, the console's forms change it. */
export const CONSOLE_PASSWORD_MIN_CHARS = 12;
export const CONSOLE_PASSWORD_MAX_CHARS = 200;
const PASSWORD_LENGTH = `must be ${CONSOLE_PASSWORD_MIN_CHARS} to ${CONSOLE_PASSWORD_MAX_CHARS} characters`;

export class ApproveMerchantRequestDto {
  @ApiProperty({ format: 'email', maxLength: 254, description: 'the console login' })
  @IsDefined()
  @IsEmail({}, { message: 'must be an email address' })
  @MaxLength(254, { message: 'must be an email address' })
  consoleEmail!: string;

  @ApiProperty({ minLength: CONSOLE_PASSWORD_MIN_CHARS, maxLength: CONSOLE_PASSWORD_MAX_CHARS, format: 'password' })
  @IsDefined()
  @IsString({ message: PASSWORD_LENGTH })
  @Length(CONSOLE_PASSWORD_MIN_CHARS, CONSOLE_PASSWORD_MAX_CHARS, { message: PASSWORD_LENGTH })
  consolePassword!: string;
}
