// path: Node 20's path module for POSIX (path.posix, which is what path
// is on Linux), ported from node's lib/path.js. resolve resolves against
// the sandbox's working directory (native.cwd, what process.cwd()
// returns). path.win32 is not provided.
(function (native) {
  'use strict';
  const { ERR, received } = native.errors;
  const SLASH = 47, DOT = 46;
  const validateString = (value, name) => {
    if (typeof value !== 'string') throw ERR('ERR_INVALID_ARG_TYPE', TypeError, `The "${name}" argument must be of type string.${received(value)}`);
  };

  // normalizeString resolves . and .. elements in a path with directory
  // names.
  function normalizeString(path, allowAboveRoot) {
    let res = '';
    let lastSegmentLength = 0;
    let lastSlash = -1;
    let dots = 0;
    let code = 0;
    for (let i = 0; i <= path.length; ++i) {
      if (i < path.length) code = path.charCodeAt(i);
      else if (code === SLASH) break;
      else code = SLASH;
      if (code === SLASH) {
        if (lastSlash === i - 1 || dots === 1) {
          // NOOP
        } else if (dots === 2) {
          if (res.length < 2 || lastSegmentLength !== 2 || res.charCodeAt(res.length - 1) !== DOT || res.charCodeAt(res.length - 2) !== DOT) {
            if (res.length > 2) {
              const lastSlashIndex = res.lastIndexOf('/');
              if (lastSlashIndex === -1) {
                res = '';
                lastSegmentLength = 0;
              } else {
                res = res.slice(0, lastSlashIndex);
                lastSegmentLength = res.length - 1 - res.lastIndexOf('/');
              }
              lastSlash = i;
              dots = 0;
              continue;
            } else if (res.length !== 0) {
              res = '';
              lastSegmentLength = 0;
              lastSlash = i;
              dots = 0;
              continue;
            }
          }
          if (allowAboveRoot) {
            res += res.length > 0 ? '/..' : '..';
            lastSegmentLength = 2;
          }
        } else {
          if (res.length > 0) res += '/' + path.slice(lastSlash + 1, i);
          else res = path.slice(lastSlash + 1, i);
          lastSegmentLength = i - lastSlash - 1;
        }
        lastSlash = i;
        dots = 0;
      } else if (code === DOT && dots !== -1) {
        ++dots;
      } else {
        dots = -1;
      }
    }
    return res;
  }

  const formatExt = (ext) => (ext ? `${ext[0] === '.' ? '' : '.'}${ext}` : '');

  const posix = {
    resolve(...args) {
      let resolvedPath = '';
      let resolvedAbsolute = false;
      for (let i = args.length - 1; i >= -1 && !resolvedAbsolute; i--) {
        const path = i >= 0 ? args[i] : native.cwd();
        validateString(path, `paths[${i}]`);
        if (path.length === 0) continue;
        resolvedPath = `${path}/${resolvedPath}`;
        resolvedAbsolute = path.charCodeAt(0) === SLASH;
      }
      resolvedPath = normalizeString(resolvedPath, !resolvedAbsolute);
      if (resolvedAbsolute) return `/${resolvedPath}`;
      return resolvedPath.length > 0 ? resolvedPath : '.';
    },

    normalize(path) {
      validateString(path, 'path');
      if (path.length === 0) return '.';
      const isAbsolute = path.charCodeAt(0) === SLASH;
      const trailingSeparator = path.charCodeAt(path.length - 1) === SLASH;
      path = normalizeString(path, !isAbsolute);
      if (path.length === 0) {
        if (isAbsolute) return '/';
        return trailingSeparator ? './' : '.';
      }
      if (trailingSeparator) path += '/';
      return isAbsolute ? `/${path}` : path;
    },

    isAbsolute(path) {
      validateString(path, 'path');
      return path.length > 0 && path.charCodeAt(0) === SLASH;
    },

    join(...args) {
      if (args.length === 0) return '.';
      let joined;
      for (let i = 0; i < args.length; ++i) {
        const arg = args[i];
        validateString(arg, 'path');
        if (arg.length > 0) {
          if (joined === undefined) joined = arg;
          else joined += `/${arg}`;
        }
      }
      if (joined === undefined) return '.';
      return posix.normalize(joined);
    },

    relative(from, to) {
      validateString(from, 'from');
      validateString(to, 'to');
      if (from === to) return '';
      from = posix.resolve(from);
      to = posix.resolve(to);
      if (from === to) return '';
      const fromStart = 1;
      const fromEnd = from.length;
      const fromLen = fromEnd - fromStart;
      const toStart = 1;
      const toLen = to.length - toStart;
      const length = fromLen < toLen ? fromLen : toLen;
      let lastCommonSep = -1;
      let i = 0;
      for (; i < length; i++) {
        const fromCode = from.charCodeAt(fromStart + i);
        if (fromCode !== to.charCodeAt(toStart + i)) break;
        else if (fromCode === SLASH) lastCommonSep = i;
      }
      if (i === length) {
        if (toLen > length) {
          if (to.charCodeAt(toStart + i) === SLASH) return to.slice(toStart + i + 1);
          if (i === 0) return to.slice(toStart + i);
        } else if (fromLen > length) {
          if (from.charCodeAt(fromStart + i) === SLASH) lastCommonSep = i;
          else if (i === 0) lastCommonSep = 0;
        }
      }
      let out = '';
      for (i = fromStart + lastCommonSep + 1; i <= fromEnd; ++i) {
        if (i === fromEnd || from.charCodeAt(i) === SLASH) out += out.length === 0 ? '..' : '/..';
      }
      return `${out}${to.slice(toStart + lastCommonSep)}`;
    },

    toNamespacedPath(path) {
      return path;
    },

    dirname(path) {
      validateString(path, 'path');
      if (path.length === 0) return '.';
      const hasRoot = path.charCodeAt(0) === SLASH;
      let end = -1;
      let matchedSlash = true;
      for (let i = path.length - 1; i >= 1; --i) {
        if (path.charCodeAt(i) === SLASH) {
          if (!matchedSlash) {
            end = i;
            break;
          }
        } else {
          matchedSlash = false;
        }
      }
      if (end === -1) return hasRoot ? '/' : '.';
      if (hasRoot && end === 1) return '//';
      return path.slice(0, end);
    },

    basename(path, suffix) {
      if (suffix !== undefined) validateString(suffix, 'ext');
      validateString(path, 'path');
      let start = 0;
      let end = -1;
      let matchedSlash = true;
      if (suffix !== undefined && suffix.length > 0 && suffix.length <= path.length) {
        if (suffix === path) return '';
        let extIdx = suffix.length - 1;
        let firstNonSlashEnd = -1;
        for (let i = path.length - 1; i >= 0; --i) {
          const code = path.charCodeAt(i);
          if (code === SLASH) {
            if (!matchedSlash) {
              start = i + 1;
              break;
            }
          } else {
            if (firstNonSlashEnd === -1) {
              matchedSlash = false;
              firstNonSlashEnd = i + 1;
            }
            if (extIdx >= 0) {
              if (code === suffix.charCodeAt(extIdx)) {
                if (--extIdx === -1) end = i;
              } else {
                extIdx = -1;
                end = firstNonSlashEnd;
              }
            }
          }
        }
        if (start === end) end = firstNonSlashEnd;
        else if (end === -1) end = path.length;
        return path.slice(start, end);
      }
      for (let i = path.length - 1; i >= 0; --i) {
        if (path.charCodeAt(i) === SLASH) {
          if (!matchedSlash) {
            start = i + 1;
            break;
          }
        } else if (end === -1) {
          matchedSlash = false;
          end = i + 1;
        }
      }
      if (end === -1) return '';
      return path.slice(start, end);
    },

    extname(path) {
      validateString(path, 'path');
      let startDot = -1;
      let startPart = 0;
      let end = -1;
      let matchedSlash = true;
      let preDotState = 0;
      for (let i = path.length - 1; i >= 0; --i) {
        const code = path.charCodeAt(i);
        if (code === SLASH) {
          if (!matchedSlash) {
            startPart = i + 1;
            break;
          }
          continue;
        }
        if (end === -1) {
          matchedSlash = false;
          end = i + 1;
        }
        if (code === DOT) {
          if (startDot === -1) startDot = i;
          else if (preDotState !== 1) preDotState = 1;
        } else if (startDot !== -1) {
          preDotState = -1;
        }
      }
      if (startDot === -1 || end === -1 || preDotState === 0 || (preDotState === 1 && startDot === end - 1 && startDot === startPart + 1)) return '';
      return path.slice(startDot, end);
    },

    format(pathObject) {
      if (pathObject === null || typeof pathObject !== 'object') {
        throw ERR('ERR_INVALID_ARG_TYPE', TypeError, `The "pathObject" argument must be of type object.${received(pathObject)}`);
      }
      const dir = pathObject.dir || pathObject.root;
      const base = pathObject.base || `${pathObject.name || ''}${formatExt(pathObject.ext)}`;
      if (!dir) return base;
      return dir === pathObject.root ? `${dir}${base}` : `${dir}/${base}`;
    },

    parse(path) {
      validateString(path, 'path');
      const ret = { root: '', dir: '', base: '', ext: '', name: '' };
      if (path.length === 0) return ret;
      const isAbsolute = path.charCodeAt(0) === SLASH;
      let start;
      if (isAbsolute) {
        ret.root = '/';
        start = 1;
      } else {
        start = 0;
      }
      let startDot = -1;
      let startPart = 0;
      let end = -1;
      let matchedSlash = true;
      let i = path.length - 1;
      let preDotState = 0;
      for (; i >= start; --i) {
        const code = path.charCodeAt(i);
        if (code === SLASH) {
          if (!matchedSlash) {
            startPart = i + 1;
            break;
          }
          continue;
        }
        if (end === -1) {
          matchedSlash = false;
          end = i + 1;
        }
        if (code === DOT) {
          if (startDot === -1) startDot = i;
          else if (preDotState !== 1) preDotState = 1;
        } else if (startDot !== -1) {
          preDotState = -1;
        }
      }
      if (end !== -1) {
        const start = startPart === 0 && isAbsolute ? 1 : startPart;
        if (startDot === -1 || preDotState === 0 || (preDotState === 1 && startDot === end - 1 && startDot === startPart + 1)) {
          ret.base = ret.name = path.slice(start, end);
        } else {
          ret.name = path.slice(start, startDot);
          ret.base = path.slice(start, end);
          ret.ext = path.slice(startDot, end);
        }
      }
      if (startPart > 0) ret.dir = path.slice(0, startPart - 1);
      else if (isAbsolute) ret.dir = '/';
      return ret;
    },

    sep: '/',
    delimiter: ':',
    posix: null,
  };
  posix.posix = posix;
  posix._makeLong = posix.toNamespacedPath;
  return posix;
})
