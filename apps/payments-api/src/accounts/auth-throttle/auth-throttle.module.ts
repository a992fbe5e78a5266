import { Module } from '@nestjs/common';
import { AUTH_FAILURE_THROTTLE } from '@payhook/auth';
import { AuthFailuresPurger } from './auth-failures.purger';
import { AuthFailuresRepository } from './auth-failures.repository';

/** Failed authentication per client address, for the operator guard and the console login. */
@Module({
  providers: [
    AuthFailuresRepository,
    AuthFailuresPurger,
    { provide: AUTH_FAILURE_THROTTLE, useExisting: AuthFailuresRepository },
  ],
  exports: [AUTH_FAILURE_THROTTLE],
})
export class AuthThrottleModule {}
