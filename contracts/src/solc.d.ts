// The pinned solc package ships no type declarations; this is the part of its API the compiler uses.
declare module 'solc' {
  interface ImportResult {
    contents?: string;
    error?: string;
  }
  const solc: {
    version(): string;
    compile(input: string, callbacks?: { import?: (path: string) => ImportResult }): string;
  };
  export default solc;
}
