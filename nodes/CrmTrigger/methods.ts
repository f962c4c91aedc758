// The trigger's load options live with the watch-channel model in shared/changes/watchChannels.ts
// (the CRM Notification node uses them too).
export { WATCHABLE_STANDARD_MODULES, getWatchableModules } from '../shared/changes/watchChannels';
