// Pure encoders/decoders: no I/O, no configuration; every failure is a CodecError.
export * from './address.js';
export * from './amount.js';
export * from './base64.js';
export * from './cb58.js';
export * from './encoded.js';
export * from './errors.js';
export * from './hex.js';
export * from './id.js';
export * from './time.js';
