/** Download Excel: the server's .xlsx saved under the spec's file name; nothing to export → alert. */
import { ApiError } from '../../lib/api.ts';
import { NO_DATA_TO_EXPORT, saveBlob } from '../../lib/admin-api.ts';

/** A report's workbook as the server names it (else `fileName`), from one of adminApi's workbook calls. */
export type Workbook = () => Promise<{ blob: Blob; fileName: string | undefined }>;

export async function downloadExcel(workbook: Workbook, fileName: string, hasData: boolean): Promise<string | null> {
  if (!hasData) {
    window.alert(NO_DATA_TO_EXPORT);
    return null;
  }
  try {
    const file = await workbook();
    saveBlob(file.blob, file.fileName ?? fileName);
    return null;
  } catch (err) {
    if (err instanceof ApiError && err.message === NO_DATA_TO_EXPORT) {
      window.alert(NO_DATA_TO_EXPORT);
      return null;
    }
    return err instanceof Error ? err.message : 'Download failed.';
  }
}
