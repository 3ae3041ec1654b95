//! Screen capture: MIT-SHM (GetImage where the server has no shared memory) of the root
//! window (screen, window frame or region), scaled down to `max_width` by area averaging,
//! encoded as PNG, JPEG or (lossless) WebP.

use std::os::unix::fs::FileExt as _;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use x11rb::connection::Connection as _;
use x11rb::protocol::shm::ConnectionExt as _;
use x11rb::protocol::xproto::{ConnectionExt as _, ImageFormat as XImageFormat};
use x11rb::rust_connection::RustConnection;

use super::{x_err, X};
use crate::desktop::Error;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    Png,
    Jpeg,
    Webp,
}

impl ImageFormat {
    pub fn mime(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
            ImageFormat::Webp => "image/webp",
        }
    }
}

/// A screen rectangle: x, y, width, height.
pub type Rect = (i32, i32, u32, u32);

/// An encoded image and how it relates to the screen.
#[derive(Debug, Clone)]
pub struct Encoded {
    pub data: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// Image pixels per screen pixel.
    pub scale: f64,
    /// The captured screen rectangle (x, y, width, height).
    pub region: (i32, i32, u32, u32),
    /// `mit-shm` or `get-image`.
    pub via: &'static str,
    /// Time spent reading the pixels from the X server (and converting them to RGB).
    pub grab: Duration,
    /// Time spent scaling and encoding.
    pub encode: Duration,
    /// Rectangles painted over because they show a secret's value.
    pub redacted: u64,
}

/// Where captures paint over a secret's value: boxes of pages (set after each browser
/// action) and of desktop fields (set before each capture), in screen pixels.
#[derive(Debug, Default)]
pub(super) struct Covered {
    pages: Vec<Rect>,
    fields: Vec<Rect>,
}

/// A shared-memory segment the size of the screen, read back with pread (no mmap, no unsafe).
#[derive(Debug)]
pub(super) struct Shm {
    seg: u32,
    file: std::fs::File,
    size: usize,
    /// The last capture's buffer, handed back after encoding: reading into pages already
    /// mapped saves about a millisecond of page faults per screen.
    spare: Mutex<Vec<u8>>,
}

impl Shm {
    fn take(&self) -> Vec<u8> {
        self.spare.lock().map(|mut s| std::mem::take(&mut *s)).unwrap_or_default()
    }

    fn give_back(&self, buf: Vec<u8>) {
        if let Ok(mut s) = self.spare.lock() {
            *s = buf;
        }
    }
}

/// Sets up MIT-SHM capture; `None` when the server does not offer it (GetImage is used then).
pub(super) fn shm_setup(conn: &RustConnection, size: usize) -> Option<Shm> {
    conn.shm_query_version().ok()?.reply().ok()?;
    let seg = conn.generate_id().ok()?;
    let reply =
        conn.shm_create_segment(seg, u32::try_from(size).ok()?, false).ok()?.reply().ok()?;
    Some(Shm { seg, file: std::fs::File::from(reply.shm_fd), size, spare: Mutex::default() })
}

impl X {
    /// Captures the screen rectangle (clipped to the screen) as the server's 32-bit pixels
    /// (blue, green, red, unused), exactly width x height of them.
    fn grab(&self, x: i32, y: i32, w: u32, h: u32) -> Result<(Vec<u8>, Rect, &'static str), Error> {
        let (sw, sh) = (i32::from(self.width), i32::from(self.height));
        let x0 = x.clamp(0, sw);
        let y0 = y.clamp(0, sh);
        let x1 = (x + w as i32).clamp(0, sw);
        let y1 = (y + h as i32).clamp(0, sh);
        if x1 <= x0 || y1 <= y0 {
            return Err(Error::OutOfRange(format!(
                "the region {x},{y} {w}x{h} is outside the {sw}x{sh} screen"
            )));
        }
        let (cw, ch) = ((x1 - x0) as u16, (y1 - y0) as u16);
        let n = usize::from(cw) * usize::from(ch);
        let conn = self.lock();
        let (data, via) = match &self.shm {
            Some(shm) if n * 4 <= shm.size => {
                let reply = conn
                    .shm_get_image(
                        self.root,
                        x0 as i16,
                        y0 as i16,
                        cw,
                        ch,
                        !0,
                        XImageFormat::Z_PIXMAP.into(),
                        shm.seg,
                        0,
                    )
                    .map_err(x_err)?
                    .reply()
                    .map_err(x_err)?;
                let mut buf = shm.take();
                buf.clear();
                buf.resize((reply.size as usize).min(shm.size), 0);
                shm.file.read_exact_at(&mut buf, 0).map_err(x_err)?;
                (buf, "mit-shm")
            }
            _ => {
                let img = conn
                    .get_image(XImageFormat::Z_PIXMAP, self.root, x0 as i16, y0 as i16, cw, ch, !0)
                    .map_err(x_err)?
                    .reply()
                    .map_err(x_err)?;
                (img.data, "get-image")
            }
        };
        drop(conn);
        if data.len() < n * 4 {
            return Err(Error::BadAnswer(format!(
                "unexpected image format ({} bytes for {n} pixels)",
                data.len()
            )));
        }
        let mut data = data;
        data.truncate(n * 4);
        Ok((data, (x0, y0, u32::from(cw), u32::from(ch)), via))
    }

    pub fn capture(
        &self,
        region: Option<(i32, i32, u32, u32)>,
        format: ImageFormat,
        quality: u8,
        max_width: Option<u32>,
    ) -> Result<Encoded, Error> {
        let (x, y, w, h) = region.unwrap_or((0, 0, u32::from(self.width), u32::from(self.height)));
        let started = Instant::now();
        let (mut bgrx, region, via) = self.grab(x, y, w, h)?;
        let redacted = self.paint_covered(&mut bgrx, region);
        let grab = started.elapsed();
        let (w, h) = (region.2, region.3);
        let (data, ow, oh) = match max_width {
            Some(mw) if mw < w => {
                let oh = ((u64::from(h) * u64::from(mw)) / u64::from(w)).max(1) as u32;
                let rgb = downscale(&to_rgb(&bgrx), w, h, mw, oh);
                (encode(Pixels::Rgb(&rgb), mw, oh, format, quality)?, mw, oh)
            }
            _ => (encode(Pixels::Bgrx(&bgrx), w, h, format, quality)?, w, h),
        };
        if let Some(shm) = &self.shm {
            shm.give_back(bgrx);
        }
        Ok(Encoded {
            data,
            width: ow,
            height: oh,
            scale: f64::from(ow) / f64::from(w),
            region,
            via,
            grab,
            encode: started.elapsed() - grab,
            redacted,
        })
    }
}

impl X {
    /// From now on every capture paints `rects` (screen pixels) over: the boxes where a
    /// page shows a secret's value (`dispatch/secrets.rs` keeps them current).
    pub fn set_covered(&self, rects: Vec<Rect>) {
        self.covered.lock().unwrap_or_else(|p| p.into_inner()).pages = rects;
    }

    pub fn add_covered(&self, rect: Rect) {
        self.covered.lock().unwrap_or_else(|p| p.into_inner()).pages.push(rect);
    }

    /// The boxes of desktop fields holding a secret's value (`desktop/ops/fields.rs`).
    pub fn set_fields_covered(&self, rects: Vec<Rect>) {
        self.covered.lock().unwrap_or_else(|p| p.into_inner()).fields = rects;
    }

    /// Paints the covered rectangles into `bgrx`, the pixels of screen `region`; how many
    /// of them met it.
    fn paint_covered(&self, bgrx: &mut [u8], (rx, ry, rw, rh): Rect) -> u64 {
        let covered = self.covered.lock().unwrap_or_else(|p| p.into_inner());
        let mut painted = 0;
        for &(x, y, w, h) in covered.pages.iter().chain(&covered.fields) {
            let x0 = (x - rx).clamp(0, rw as i32) as usize;
            let y0 = (y - ry).clamp(0, rh as i32) as usize;
            let x1 = (x + w as i32 - rx).clamp(0, rw as i32) as usize;
            let y1 = (y + h as i32 - ry).clamp(0, rh as i32) as usize;
            if x1 > x0 && y1 > y0 {
                painted += 1;
            }
            for row in y0..y1 {
                for col in x0..x1 {
                    let i = (row * rw as usize + col) * 4;
                    if let Some(p) = bgrx.get_mut(i..i + 3) {
                        p.copy_from_slice(&[32, 32, 32]);
                    }
                }
            }
        }
        painted
    }

    /// The unscaled RGB pixels of a screen rectangle (the whole screen when `None`), with
    /// its width and height, for a caller that composes its own image (`native` fits the
    /// screen into a model's declared display).
    pub fn capture_rgb(&self, region: Option<Rect>) -> Result<(Vec<u8>, u32, u32), Error> {
        let (x, y, w, h) = region.unwrap_or((0, 0, u32::from(self.width), u32::from(self.height)));
        let (mut bgrx, region, _) = self.grab(x, y, w, h)?;
        self.paint_covered(&mut bgrx, region);
        let rgb = to_rgb(&bgrx);
        if let Some(shm) = &self.shm {
            shm.give_back(bgrx);
        }
        Ok((rgb, region.2, region.3))
    }
}

/// Packed RGB as a PNG, encoded as every capture is.
pub fn rgb_png(rgb: &[u8], w: u32, h: u32) -> Result<Vec<u8>, Error> {
    encode(Pixels::Rgb(rgb), w, h, ImageFormat::Png, 0)
}

/// Area-averaging downscale of packed RGB.
pub fn downscale(src: &[u8], w: u32, h: u32, ow: u32, oh: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity((ow * oh * 3) as usize);
    for oy in 0..oh {
        let y0 = oy * h / oh;
        let y1 = ((oy + 1) * h / oh).max(y0 + 1);
        for ox in 0..ow {
            let x0 = ox * w / ow;
            let x1 = ((ox + 1) * w / ow).max(x0 + 1);
            let mut acc = [0u32; 3];
            let mut n = 0u32;
            for yy in y0..y1 {
                for xx in x0..x1 {
                    let i = ((yy * w + xx) * 3) as usize;
                    acc[0] += u32::from(src[i]);
                    acc[1] += u32::from(src[i + 1]);
                    acc[2] += u32::from(src[i + 2]);
                    n += 1;
                }
            }
            out.extend(acc.iter().map(|a| (a / n) as u8));
        }
    }
    out
}

/// Pixels to encode: packed RGB, or the server's blue-green-red-unused words.
#[derive(Clone, Copy)]
enum Pixels<'a> {
    Rgb(&'a [u8]),
    Bgrx(&'a [u8]),
}

/// Packed RGB from blue-green-red-unused pixels.
fn to_rgb(bgrx: &[u8]) -> Vec<u8> {
    let mut rgb = vec![0u8; bgrx.len() / 4 * 3];
    for (out, px) in rgb.chunks_exact_mut(3).zip(bgrx.chunks_exact(4)) {
        out.copy_from_slice(&[px[2], px[1], px[0]]);
    }
    rgb
}

fn encode(
    pixels: Pixels<'_>,
    w: u32,
    h: u32,
    format: ImageFormat,
    quality: u8,
) -> Result<Vec<u8>, Error> {
    let fail =
        |e: &dyn std::fmt::Display| Error::BadAnswer(format!("encoding the image failed: {e}"));
    // JPEG takes the server's pixels as they are; the others want RGB.
    if format == ImageFormat::Jpeg {
        return jpeg(pixels, w, h, quality).map_err(|e| fail(&e));
    }
    let converted;
    let rgb = match pixels {
        Pixels::Rgb(rgb) => rgb,
        Pixels::Bgrx(bgrx) => {
            converted = to_rgb(bgrx);
            &converted
        }
    };
    let mut out = Vec::new();
    if format == ImageFormat::Webp {
        image_webp::WebPEncoder::new(&mut out)
            .encode(rgb, w, h, image_webp::ColorType::Rgb8)
            .map_err(|e| fail(&e))?;
        return Ok(out);
    }
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    // fdeflate's fastest mode with the Up filter: trying every filter on every row (what
    // `Fast` does) doubled the encode time of a screen for a little less size.
    enc.set_compression(png::Compression::Fastest);
    let mut writer = enc.write_header().map_err(|e| fail(&e))?;
    writer.write_image_data(rgb).map_err(|e| fail(&e))?;
    writer.finish().map_err(|e| fail(&e))?;
    Ok(out)
}

/// JPEG through libjpeg-turbo: about 2.5 ms for a 1280x800 screen where a pure-Rust encoder
/// took 7 to 12. Chroma is subsampled 4:2:0 below quality 90 and kept whole from there on.
fn jpeg(pixels: Pixels<'_>, w: u32, h: u32, quality: u8) -> Result<Vec<u8>, turbojpeg::Error> {
    let (data, format, bytes) = match pixels {
        Pixels::Rgb(rgb) => (rgb, turbojpeg::PixelFormat::RGB, 3),
        Pixels::Bgrx(bgrx) => (bgrx, turbojpeg::PixelFormat::BGRX, 4),
    };
    let (width, height) = (w as usize, h as usize);
    let image = turbojpeg::Image { pixels: data, width, pitch: width * bytes, height, format };
    let mut c = turbojpeg::Compressor::new()?;
    c.set_quality(i32::from(quality.clamp(1, 100)));
    c.set_subsamp(if quality < 90 { turbojpeg::Subsamp::Sub2x2 } else { turbojpeg::Subsamp::None });
    c.compress_to_vec(image)
}
