package picture

import (
	"image"
	"image/png"
	"io"
)

// PNG writes img as a PNG, compressed as far as the encoder goes (pictures go by mail).
func PNG(w io.Writer, img image.Image) error {
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	return enc.Encode(w, img)
}
