// Zip support within the community-node import rules (no node:zlib): a writer of stored entries
// with CRC-32 and a reader of stored and DEFLATE entries (inflate written in TypeScript).
export { crc32 } from './crc32';
export { InflateError, InflateLimitError, inflateRaw } from './inflate';
export { MAX_UNZIPPED_BYTES, ZipError, createZip, isZip, readZip } from './zip';
export type { ZipFile } from './zip';
