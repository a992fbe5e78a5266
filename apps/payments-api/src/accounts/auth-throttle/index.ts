// The auth-throttle feature's door: what the other rooms may use of it.
export { AuthThrottleModule } from './auth-throttle.module';
