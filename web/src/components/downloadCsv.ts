/** Hands the text to the browser as a file download. */
export function downloadCsv(csv: string, fileName: string): void {
  // The byte order mark makes Excel read the file as UTF-8 (accented names stay intact).
  const blob = new Blob(["\ufeff", csv], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
