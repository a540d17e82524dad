/** Reads a chosen file as text, or as base64 for binary formats. */
export function readFile(file: File, as: 'text' | 'base64'): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error);
    reader.onload = () => {
      const result = String(reader.result);
      resolve(as === 'text' ? result : result.slice(result.indexOf(',') + 1));
    };
    if (as === 'text') reader.readAsText(file);
    else reader.readAsDataURL(file);
  });
}
