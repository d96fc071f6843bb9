package tokens

import tiktokenloader "github.com/pkoukk/tiktoken-go-loader"

func embeddedLoaderForBench() bpeLoader { return tiktokenloader.NewOfflineLoader() }
