import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsEmail, IsString, Length, MaxLength } from 'class-validator';

export class ApproveMerchantRequestDto {
  @ApiProperty({ format: 'email', maxLength: 254, description: 'the console login' })
  @IsDefined()
  @IsEmail({}, { message: 'must be an email address' })
  @MaxLength(254, { message: 'must be an email address' })
  consoleEmail!: string;

  @ApiProperty({ minLength: 12, maxLength: 200, format: 'password' })
  @IsDefined()
  @IsString({ message: 'must be 12 to 200 characters' })
  @Length(12, 200, { message: 'must be 12 to 200 characters' })
  consolePassword!: string;
}
