// A file's size as the advisor reads it: "840 KB", "2.4 MB"; nothing when the record gives none.
export function fileSizeText(kb: number | null): string {
  if (kb === null) return '';
  return kb >= 1024 ? `${(kb / 1024).toFixed(1)} MB` : `${kb} KB`;
}
