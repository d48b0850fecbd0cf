enum FileSystemPlaceholder {}
