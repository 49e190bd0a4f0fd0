/**
 * The local signer (docs/architecture.md, layer "signer"): one secp256k1 key, its public addresses, and
 * signatures over hashes the caller computed. Importing this file loads the curve code; the start path
 * imports `./types.js` (and the key file module) instead and reaches this one with `await import()`.
 */
export { addressesOfKey, checksumEvmAddress, type PrivateKeySignerOptions, signerFromPrivateKey } from './keys.js';
export { type EvmSignature, type LocalSigner, type SignerAddresses, SignerLockedError, xpAddress } from './types.js';
export {
  KeyFileError,
  KeyFileSigner,
  type KeyFileSignerOptions,
  keyFileOpenToOthers,
  openKeyFile,
  readKeyFileAddresses,
  STRONG_SCRYPT,
  type ScryptParams,
  WrongPassphraseError,
  writeKeyFile,
} from './keyfile.js';
