export { auditReadModel } from './read-model.js';
