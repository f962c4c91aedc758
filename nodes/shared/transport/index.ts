// The one transport of the package: every node's requests go through these.
export * from './batch';
export * from './envelope';
export * from './errors';
export * from './pagination';
export * from './request';
export * from './runner';
export * from './apiVariant';
