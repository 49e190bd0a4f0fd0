// The two limiters chain-mcp uses, imported by file: the package's index requires every backend it
// has (Mongo, Redis, Dynamo...), which would all land in the one-file bundle.
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
  import { RateLimiterMemory } from 'rate-limiter-flexible';
  export default RateLimiterMemory;
}
declare module 'rate-limiter-flexible/lib/RateLimiterPostgres.js' {
  import { RateLimiterPostgres } from 'rate-limiter-flexible';
  export default RateLimiterPostgres;
}
declare module 'rate-limiter-flexible/lib/RateLimiterRes.js' {
  import { RateLimiterRes } from 'rate-limiter-flexible';
  export default RateLimiterRes;
}
