/** Download Excel: the server's .xlsx saved under the spec's file name; nothing to export → alert. */
import { AdminApiError, NO_DATA_TO_EXPORT, adminApi, saveBlob } from '../../lib/admin-api.ts';

export async function downloadExcel(path: string, fileName: string, hasData: boolean): Promise<string | null> {
  if (!hasData) {
    window.alert(NO_DATA_TO_EXPORT);
    return null;
  }
  try {
    const file = await adminApi.downloadExcel(path, fileName);
    saveBlob(file.blob, file.fileName);
    return null;
  } catch (err) {
    if (err instanceof AdminApiError && err.message === NO_DATA_TO_EXPORT) {
      window.alert(NO_DATA_TO_EXPORT);
      return null;
    }
    return err instanceof Error ? err.message : 'Download failed.';
  }
}
