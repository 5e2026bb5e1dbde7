// Buffer, as Node 20's global: a Uint8Array subclass with Node's
// encodings (utf8, hex, base64, base64url, latin1/binary, ascii,
// utf16le/ucs2), its static helpers and its read/write methods. The
// utf8, hex and base64 byte work is native; the encodings that map UTF-16
// code units to bytes are loops here.
(function (native) {
  'use strict';
  const { ERR, outOfRange, received } = native.errors;
  const kMaxLength = 4294967296;

  const encodings = {
    utf8: 'utf8', 'utf-8': 'utf8', hex: 'hex', base64: 'base64', base64url: 'base64url',
    latin1: 'latin1', binary: 'latin1', ascii: 'ascii',
    utf16le: 'utf16le', 'utf-16le': 'utf16le', ucs2: 'utf16le', 'ucs-2': 'utf16le',
  };
  const normalize = (enc) => {
    if (enc === undefined || enc === null) return 'utf8';
    const e = encodings[String(enc).toLowerCase()];
    if (e === undefined) throw ERR('ERR_UNKNOWN_ENCODING', TypeError, 'Unknown encoding: ' + enc);
    return e;
  };

  class Buffer extends Uint8Array {
    constructor(arg, encOrOffset, length) {
      if (typeof arg === 'number' && arguments.length === 1) { super(arg); return; }
      if (arg instanceof ArrayBuffer) { super(arg, encOrOffset === undefined ? 0 : encOrOffset, length === undefined ? arg.byteLength - (encOrOffset || 0) : length); return; }
      super(arg);
    }
    static from(value, encOrOffset, length) {
      if (typeof value === 'string') return fromString(value, encOrOffset);
      if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer)) {
        const off = encOrOffset === undefined ? 0 : Math.trunc(Number(encOrOffset)) || 0;
        if (off > value.byteLength) throw ERR('ERR_BUFFER_OUT_OF_BOUNDS', RangeError, '"offset" is outside of buffer bounds');
        const len = length === undefined ? value.byteLength - off : Math.trunc(Number(length)) || 0;
        if (off + len > value.byteLength) throw ERR('ERR_BUFFER_OUT_OF_BOUNDS', RangeError, '"length" is outside of buffer bounds');
        return new Buffer(value, off, len);
      }
      if (ArrayBuffer.isView(value)) {
        const b = new Buffer(value.length);
        for (let i = 0; i < value.length; i++) b[i] = value[i];
        return b;
      }
      if (value !== null && typeof value === 'object') {
        if (typeof value.valueOf === 'function') {
          const prim = value.valueOf();
          if (prim !== value && prim !== null && prim !== undefined && (typeof prim === 'string' || typeof prim === 'object')) return Buffer.from(prim, encOrOffset, length);
        }
        if (value.type === 'Buffer' && Array.isArray(value.data)) return fromArrayLike(value.data);
        if (typeof value.length === 'number' || Array.isArray(value)) return fromArrayLike(value);
      }
      throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object.' + received(value));
    }
    static alloc(size, fill, encoding) {
      checkSize(size);
      const b = new Buffer(size);
      if (fill !== undefined && fill !== 0 && size > 0) b.fill(fill, encoding);
      return b;
    }
    static allocUnsafe(size) { checkSize(size); return new Buffer(size); }
    static allocUnsafeSlow(size) { checkSize(size); return new Buffer(size); }
    static isBuffer(b) { return b instanceof Buffer; }
    static isEncoding(enc) { return typeof enc === 'string' && enc.length > 0 && encodings[enc.toLowerCase()] !== undefined; }
    static byteLength(value, encoding) {
      if (typeof value !== 'string') {
        if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value.byteLength;
        throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "string" argument must be of type string or an instance of Buffer or ArrayBuffer.' + received(value));
      }
      let enc;
      try { enc = normalize(encoding); } catch { enc = 'utf8'; }
      switch (enc) {
        case 'latin1': case 'ascii': return value.length;
        case 'utf16le': return value.length * 2;
        default: return fromString(value, enc).length;
      }
    }
    static compare(a, b) {
      if (!(a instanceof Uint8Array)) throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "buf1" argument must be an instance of Buffer or Uint8Array.' + received(a));
      if (!(b instanceof Uint8Array)) throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "buf2" argument must be an instance of Buffer or Uint8Array.' + received(b));
      return compareBytes(a, 0, a.length, b, 0, b.length);
    }
    static concat(list, totalLength) {
      if (!Array.isArray(list)) throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "list" argument must be an instance of Array.' + received(list));
      if (totalLength === undefined) {
        totalLength = 0;
        for (let i = 0; i < list.length; i++) {
          if (!(list[i] instanceof Uint8Array)) throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "list[' + i + ']" argument must be an instance of Buffer or Uint8Array.' + received(list[i]));
          totalLength += list[i].length;
        }
      }
      const out = Buffer.alloc(totalLength);
      let pos = 0;
      for (let i = 0; i < list.length && pos < totalLength; i++) {
        const src = list[i];
        if (!(src instanceof Uint8Array)) throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "list[' + i + ']" argument must be an instance of Buffer or Uint8Array.' + received(src));
        const n = Math.min(src.length, totalLength - pos);
        out.set(n === src.length ? src : src.subarray(0, n), pos);
        pos += n;
      }
      return out;
    }

    get parent() { return this.buffer; }
    get offset() { return this.byteOffset; }

    toString(encoding, start, end) {
      if (arguments.length === 0) return native.decode(this, 'utf8', 0, this.length);
      const enc = normalize(encoding);
      start = start === undefined ? 0 : Math.max(0, Math.trunc(Number(start)) || 0);
      end = end === undefined ? this.length : Math.min(this.length, Math.trunc(Number(end)) || 0);
      if (end <= start) return '';
      return decodeBytes(this, enc, start, end);
    }
    toLocaleString(encoding, start, end) { return this.toString(encoding, start, end); }
    toJSON() { return { type: 'Buffer', data: Array.from(this) }; }
    equals(other) {
      if (!(other instanceof Uint8Array)) throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "otherBuffer" argument must be an instance of Buffer or Uint8Array.' + received(other));
      return compareBytes(this, 0, this.length, other, 0, other.length) === 0;
    }
    compare(target, tStart = 0, tEnd = target ? target.length : 0, sStart = 0, sEnd = this.length) {
      if (!(target instanceof Uint8Array)) throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "target" argument must be an instance of Buffer or Uint8Array.' + received(target));
      return compareBytes(this, sStart, sEnd, target, tStart, tEnd);
    }
    slice(start, end) { return this.subarray(start, end); }
    write(string, offset, length, encoding) {
      if (typeof offset === 'string') { encoding = offset; offset = 0; length = undefined; } else if (typeof length === 'string') { encoding = length; length = undefined; }
      offset = offset === undefined ? 0 : offset >>> 0;
      const bytes = fromString(String(string), normalize(encoding));
      const n = Math.min(bytes.length, this.length - offset, length === undefined ? Infinity : length >>> 0);
      for (let i = 0; i < n; i++) this[offset + i] = bytes[i];
      return n;
    }
    fill(value, offset, end, encoding) {
      if (typeof offset === 'string') { encoding = offset; offset = 0; end = this.length; } else if (typeof end === 'string') { encoding = end; end = this.length; }
      offset = offset === undefined ? 0 : offset >>> 0;
      end = end === undefined ? this.length : end >>> 0;
      if (typeof value === 'number') return Uint8Array.prototype.fill.call(this, value & 255, offset, end), this;
      if (typeof value === 'boolean') return Uint8Array.prototype.fill.call(this, Number(value), offset, end), this;
      const bytes = typeof value === 'string' ? fromString(value, normalize(encoding)) : Buffer.from(value);
      if (bytes.length === 0) {
        if (typeof value === 'string' && value.length > 0) throw ERR('ERR_INVALID_ARG_VALUE', TypeError, "The argument 'value' is invalid. Received '" + value + "'");
        return Uint8Array.prototype.fill.call(this, 0, offset, end), this;
      }
      for (let i = offset, j = 0; i < end; i++, j = (j + 1) % bytes.length) this[i] = bytes[j];
      return this;
    }
    copy(target, targetStart = 0, sourceStart = 0, sourceEnd = this.length) {
      sourceEnd = Math.min(sourceEnd, this.length);
      const n = Math.max(0, Math.min(sourceEnd - sourceStart, target.length - targetStart));
      if (n > 0) target.set(this.subarray(sourceStart, sourceStart + n), targetStart);
      return n;
    }
    indexOf(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, true); }
    lastIndexOf(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, false); }
    includes(value, byteOffset, encoding) { return this.indexOf(value, byteOffset, encoding) !== -1; }
    swap16() { return swap(this, 2); }
    swap32() { return swap(this, 4); }
    swap64() { return swap(this, 8); }
    readUInt8(offset = 0) { return readNum(this, offset, 1, 'Uint8', false); }
    writeUInt8(value, offset = 0) { return writeNum(this, value, offset, 1, 'Uint8', false); }
    readUint8(offset = 0) { return readNum(this, offset, 1, 'Uint8', false); }
    writeUint8(value, offset = 0) { return writeNum(this, value, offset, 1, 'Uint8', false); }
    readInt8(offset = 0) { return readNum(this, offset, 1, 'Int8', false); }
    writeInt8(value, offset = 0) { return writeNum(this, value, offset, 1, 'Int8', false); }
    readUInt16LE(offset = 0) { return readNum(this, offset, 2, 'Uint16', true); }
    writeUInt16LE(value, offset = 0) { return writeNum(this, value, offset, 2, 'Uint16', true); }
    readUint16LE(offset = 0) { return readNum(this, offset, 2, 'Uint16', true); }
    writeUint16LE(value, offset = 0) { return writeNum(this, value, offset, 2, 'Uint16', true); }
    readUInt16BE(offset = 0) { return readNum(this, offset, 2, 'Uint16', false); }
    writeUInt16BE(value, offset = 0) { return writeNum(this, value, offset, 2, 'Uint16', false); }
    readUint16BE(offset = 0) { return readNum(this, offset, 2, 'Uint16', false); }
    writeUint16BE(value, offset = 0) { return writeNum(this, value, offset, 2, 'Uint16', false); }
    readInt16LE(offset = 0) { return readNum(this, offset, 2, 'Int16', true); }
    writeInt16LE(value, offset = 0) { return writeNum(this, value, offset, 2, 'Int16', true); }
    readInt16BE(offset = 0) { return readNum(this, offset, 2, 'Int16', false); }
    writeInt16BE(value, offset = 0) { return writeNum(this, value, offset, 2, 'Int16', false); }
    readUInt32LE(offset = 0) { return readNum(this, offset, 4, 'Uint32', true); }
    writeUInt32LE(value, offset = 0) { return writeNum(this, value, offset, 4, 'Uint32', true); }
    readUint32LE(offset = 0) { return readNum(this, offset, 4, 'Uint32', true); }
    writeUint32LE(value, offset = 0) { return writeNum(this, value, offset, 4, 'Uint32', true); }
    readUInt32BE(offset = 0) { return readNum(this, offset, 4, 'Uint32', false); }
    writeUInt32BE(value, offset = 0) { return writeNum(this, value, offset, 4, 'Uint32', false); }
    readUint32BE(offset = 0) { return readNum(this, offset, 4, 'Uint32', false); }
    writeUint32BE(value, offset = 0) { return writeNum(this, value, offset, 4, 'Uint32', false); }
    readInt32LE(offset = 0) { return readNum(this, offset, 4, 'Int32', true); }
    writeInt32LE(value, offset = 0) { return writeNum(this, value, offset, 4, 'Int32', true); }
    readInt32BE(offset = 0) { return readNum(this, offset, 4, 'Int32', false); }
    writeInt32BE(value, offset = 0) { return writeNum(this, value, offset, 4, 'Int32', false); }
    readFloatLE(offset = 0) { return readNum(this, offset, 4, 'Float32', true); }
    writeFloatLE(value, offset = 0) { return writeNum(this, value, offset, 4, 'Float32', true); }
    readFloatBE(offset = 0) { return readNum(this, offset, 4, 'Float32', false); }
    writeFloatBE(value, offset = 0) { return writeNum(this, value, offset, 4, 'Float32', false); }
    readDoubleLE(offset = 0) { return readNum(this, offset, 8, 'Float64', true); }
    writeDoubleLE(value, offset = 0) { return writeNum(this, value, offset, 8, 'Float64', true); }
    readDoubleBE(offset = 0) { return readNum(this, offset, 8, 'Float64', false); }
    writeDoubleBE(value, offset = 0) { return writeNum(this, value, offset, 8, 'Float64', false); }
    readBigInt64LE(offset = 0) { return readNum(this, offset, 8, 'BigInt64', true); }
    writeBigInt64LE(value, offset = 0) { return writeNum(this, value, offset, 8, 'BigInt64', true); }
    readBigInt64BE(offset = 0) { return readNum(this, offset, 8, 'BigInt64', false); }
    writeBigInt64BE(value, offset = 0) { return writeNum(this, value, offset, 8, 'BigInt64', false); }
    readBigUInt64LE(offset = 0) { return readNum(this, offset, 8, 'BigUint64', true); }
    writeBigUInt64LE(value, offset = 0) { return writeNum(this, value, offset, 8, 'BigUint64', true); }
    readBigUint64LE(offset = 0) { return readNum(this, offset, 8, 'BigUint64', true); }
    writeBigUint64LE(value, offset = 0) { return writeNum(this, value, offset, 8, 'BigUint64', true); }
    readBigUInt64BE(offset = 0) { return readNum(this, offset, 8, 'BigUint64', false); }
    writeBigUInt64BE(value, offset = 0) { return writeNum(this, value, offset, 8, 'BigUint64', false); }
    readBigUint64BE(offset = 0) { return readNum(this, offset, 8, 'BigUint64', false); }
    writeBigUint64BE(value, offset = 0) { return writeNum(this, value, offset, 8, 'BigUint64', false); }
    readUIntLE(offset, byteLength) { return readVar(this, offset, byteLength, true, false); }
    writeUIntLE(value, offset, byteLength) { return writeVar(this, +value, offset, byteLength, true, false); }
    readUintLE(offset, byteLength) { return readVar(this, offset, byteLength, true, false); }
    writeUintLE(value, offset, byteLength) { return writeVar(this, +value, offset, byteLength, true, false); }
    readUIntBE(offset, byteLength) { return readVar(this, offset, byteLength, false, false); }
    writeUIntBE(value, offset, byteLength) { return writeVar(this, +value, offset, byteLength, false, false); }
    readUintBE(offset, byteLength) { return readVar(this, offset, byteLength, false, false); }
    writeUintBE(value, offset, byteLength) { return writeVar(this, +value, offset, byteLength, false, false); }
    readIntLE(offset, byteLength) { return readVar(this, offset, byteLength, true, true); }
    writeIntLE(value, offset, byteLength) { return writeVar(this, +value, offset, byteLength, true, true); }
    readIntBE(offset, byteLength) { return readVar(this, offset, byteLength, false, true); }
    writeIntBE(value, offset, byteLength) { return writeVar(this, +value, offset, byteLength, false, true); }
  }
  Object.defineProperty(Buffer, 'poolSize', { value: 8192, writable: true, enumerable: true, configurable: true });

  // Numbers: read/write methods over a DataView of the same bytes.
  const view = (b) => new DataView(b.buffer, b.byteOffset, b.byteLength);
  const checkOffset = (b, offset, size) => {
    if (offset === undefined) offset = 0;
    if (typeof offset !== 'number') throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "offset" argument must be of type number.' + received(offset));
    if (!Number.isInteger(offset)) throw ERR('ERR_OUT_OF_RANGE', RangeError, 'The value of "offset" is out of range. It must be an integer. Received ' + offset);
    if (offset < 0 || offset + size > b.length) {
      if (b.length - size < 0) throw ERR('ERR_BUFFER_OUT_OF_BOUNDS', RangeError, 'Attempt to access memory outside buffer bounds');
      throw ERR('ERR_OUT_OF_RANGE', RangeError, 'The value of "offset" is out of range. It must be >= 0 and <= ' + (b.length - size) + '. Received ' + offset);
    }
    return offset;
  };
  const ranges = { Uint8: [0, 255], Int8: [-128, 127], Uint16: [0, 65535], Int16: [-32768, 32767], Uint32: [0, 4294967295], Int32: [-2147483648, 2147483647] };
  function readNum(b, offset, size, dv, le) {
    offset = checkOffset(b, offset, size);
    return DataView.prototype['get' + dv].call(view(b), offset, le);
  }
  function writeNum(b, value, offset, size, dv, le) {
    const r = ranges[dv];
    if (r && (value < r[0] || value > r[1])) {
      throw ERR('ERR_OUT_OF_RANGE', RangeError, 'The value of "value" is out of range. It must be >= ' + r[0] + ' and <= ' + r[1] + '. Received ' + outOfRange(value));
    }
    offset = checkOffset(b, offset, size);
    DataView.prototype['set' + dv].call(view(b), offset, dv.startsWith('Big') ? value : +value, le);
    return offset + size;
  }

  // Variable-width integers: readUIntLE(offset, byteLength) and friends,
  // for 1 to 6 bytes.
  const checkWidth = (n) => {
    if (typeof n !== 'number') throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "byteLength" argument must be of type number.' + received(n));
    if (!Number.isInteger(n) || n < 1 || n > 6) throw ERR('ERR_OUT_OF_RANGE', RangeError, 'The value of "byteLength" is out of range. It must be >= 1 and <= 6. Received ' + n);
  };
  const readVar = (b, offset, n, le, signed) => {
    checkWidth(n);
    offset = checkOffset(b, offset, n);
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + b[offset + (le ? n - 1 - i : i)];
    if (signed && v >= 2 ** (8 * n - 1)) v -= 2 ** (8 * n);
    return v;
  };
  const writeVar = (b, value, offset, n, le, signed) => {
    checkWidth(n);
    const lo = signed ? -(2 ** (8 * n - 1)) : 0, hi = signed ? 2 ** (8 * n - 1) - 1 : 2 ** (8 * n) - 1;
    if (value < lo || value > hi) {
      const range = n > 4 ? (signed ? '>= -(2 ** ' + (8 * n - 1) + ') and < 2 ** ' + (8 * n - 1) : '>= 0 and < 2 ** ' + 8 * n) : '>= ' + lo + ' and <= ' + hi;
      throw ERR('ERR_OUT_OF_RANGE', RangeError, 'The value of "value" is out of range. It must be ' + range + '. Received ' + outOfRange(value));
    }
    offset = checkOffset(b, offset, n);
    let v = value < 0 ? value + 2 ** (8 * n) : value;
    for (let i = 0; i < n; i++) { b[offset + (le ? i : n - 1 - i)] = v % 256; v = Math.floor(v / 256); }
    return offset + n;
  };
  function checkSize(size) {
    if (typeof size !== 'number') throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "size" argument must be of type number.' + received(size));
    if (!(size >= 0 && size <= kMaxLength)) throw ERR('ERR_OUT_OF_RANGE', RangeError, 'The value of "size" is out of range. It must be >= 0 && <= ' + kMaxLength + '. Received ' + outOfRange(size));
  }
  function fromArrayLike(a) {
    const n = a.length >>> 0;
    const b = new Buffer(n);
    for (let i = 0; i < n; i++) b[i] = a[i];
    return b;
  }
  function fromString(s, encoding) {
    const enc = typeof encoding === 'string' && encodings[encoding] === encoding ? encoding : normalize(encoding);
    switch (enc) {
      case 'latin1': case 'ascii': {
        const b = new Buffer(s.length);
        for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i) & 255;
        return b;
      }
      case 'utf16le': {
        const b = new Buffer(s.length * 2);
        for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i); b[2 * i] = c & 255; b[2 * i + 1] = c >> 8; }
        return b;
      }
      default:
        return new Buffer(native.encode(s, enc));
    }
  }
  function decodeBytes(b, enc, start, end) {
    switch (enc) {
      case 'latin1': case 'ascii': {
        const mask = enc === 'ascii' ? 127 : 255;
        let s = '';
        for (let i = start; i < end; i += 4096) {
          const chunk = b.subarray(i, Math.min(end, i + 4096));
          s += String.fromCharCode.apply(null, mask === 255 ? chunk : Array.from(chunk, (x) => x & mask));
        }
        return s;
      }
      case 'utf16le': {
        let s = '';
        for (let i = start; i + 1 < end; i += 2) s += String.fromCharCode(b[i] | (b[i + 1] << 8));
        return s;
      }
      default:
        return native.decode(b, enc, start, end);
    }
  }
  function compareBytes(a, as, ae, b, bs, be) {
    for (let i = as, j = bs; ; i++, j++) {
      if (i >= ae) return j >= be ? 0 : -1;
      if (j >= be) return 1;
      if (a[i] !== b[j]) return a[i] < b[j] ? -1 : 1;
    }
  }
  function search(b, value, byteOffset, encoding, forward) {
    if (typeof byteOffset === 'string') { encoding = byteOffset; byteOffset = undefined; }
    let off = byteOffset === undefined || byteOffset === null ? (forward ? 0 : b.length) : Number(byteOffset);
    if (Number.isNaN(off)) off = forward ? 0 : b.length;
    off = Math.trunc(off);
    if (off < 0) off += b.length;
    let needle;
    if (typeof value === 'number') needle = [value & 255];
    else if (typeof value === 'string') needle = fromString(value, normalize(encoding));
    else if (value instanceof Uint8Array) needle = value;
    else throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "value" argument must be one of type number or string or an instance of Buffer or Uint8Array.' + received(value));
    const n = needle.length;
    if (n === 0) return forward ? Math.min(Math.max(off, 0), b.length) : Math.min(Math.max(off, 0), b.length);
    if (forward) {
      for (let i = Math.max(off, 0); i + n <= b.length; i++) if (matchAt(b, needle, i)) return i;
    } else {
      for (let i = Math.min(off, b.length - n); i >= 0; i--) if (matchAt(b, needle, i)) return i;
    }
    return -1;
  }
  function matchAt(b, needle, i) {
    for (let k = 0; k < needle.length; k++) if (b[i + k] !== needle[k]) return false;
    return true;
  }
  function swap(b, size) {
    if (b.length % size !== 0) throw ERR('ERR_INVALID_BUFFER_SIZE', RangeError, 'Buffer size must be a multiple of ' + size * 8 + '-bits');
    for (let i = 0; i < b.length; i += size) {
      for (let a = i, z = i + size - 1; a < z; a++, z--) { const t = b[a]; b[a] = b[z]; b[z] = t; }
    }
    return b;
  }

  native.registerInspect(Buffer.prototype, function (depth, opts) {
    const max = 50;
    let s = '';
    for (let i = 0; i < Math.min(max, this.length); i++) s += (i ? ' ' : '') + (this[i] < 16 ? '0' : '') + this[i].toString(16);
    if (this.length > max) s += ' ... ' + (this.length - max) + ' more byte' + (this.length - max > 1 ? 's' : '');
    return '<' + this.constructor.name + ' ' + s + '>';
  });

  return Buffer;
})
