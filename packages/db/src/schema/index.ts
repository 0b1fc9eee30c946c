export * from './auth.js';
export * from './country.js';
export * from './event.js';
export * from './reference.js';
export * from './student.js';
export * from './stored-file.js';
export * from './contract.js';
export * from './jobs.js';
