// The subgraph feature's old way in to the settings, until it reads kit/settings itself.
export { settings as config, idFromName } from './kit/settings';
