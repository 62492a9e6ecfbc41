/**
 * Where encrypted files go and the master key that wraps each file's own data key. Created once at
 * start (`loadFileStore`) and handed to `storeEncryptedFile` / `readEncryptedFile`.
 */
export interface FileStore {
  /** `DATA_DIR/files`: one ciphertext file per stored file, named by its id. */
  directory: string;
  /** 32 bytes; never leaves the server. */
  masterKey: Buffer;
}
