const KEY = "reloadedForBuild";

/** Reload once onto the server's newer build; the marker stops a reload loop if the build stays different. */
export function reloadForBuild(serverBuild: string, storage: Storage = sessionStorage, reload = () => location.reload()): boolean {
  if (storage.getItem(KEY) === serverBuild) return false;
  storage.setItem(KEY, serverBuild);
  reload();
  return true;
}
