// detour-report's maps, on the app's pages: a place chosen by a long press, and a destination's
// places shown. Every page works without this script: the place is then two fields, lat and lon.
//
// An element with data-map-pick (a form's map) sets the fields it names: data-lat and data-lon,
// and data-name, filled with the nearest populated place (data-nearest) when it is empty. A long
// press is 500 ms with a mouse button or a finger held still (data-pressing is set while one is
// under way); a right-click places at once, and so does Enter on the map, at its centre. Its
// search box (data-search) centres the map on a place found by name and gives the map the focus.
// An element with data-map-show draws the points of data-points: [{"lat", "lon", "label"}, …].
//
// Forms with data-live check what is typed as it is typed: a departure on or before the arrival
// and a latitude or longitude out of range are shown after their fields (FIELD-live, announced),
// and the form cannot be sent while one stands. The server checks everything again, with the
// same words, and its own problems (FIELD-problem) are left as they are.
//
// Names come from trip files, which others may write: they reach the page as text only
// (textContent, or escaped() where Leaflet takes HTML).
(function () {
  "use strict";

  var LONG_PRESS_MS = 500;
  // How far a press may wander, in pixels, and still be held still.
  var SLOP = 8;

  // `text` as HTML that shows it as it is: Leaflet writes attributions as HTML.
  function escaped(text) {
    var holder = document.createElement("span");
    holder.textContent = text;
    return holder.innerHTML;
  }

  // GET `url` and hand its JSON to `done`, only when it is a 200 with a body.
  function getJSON(url, done) {
    var request = new XMLHttpRequest();
    request.open("GET", url);
    request.setRequestHeader("Accept", "application/json");
    request.responseType = "json";
    request.onload = function () {
      if (request.status === 200 && request.response) done(request.response);
    };
    request.send();
  }

  function baseMap(element) {
    var map = L.map(element, { worldCopyJump: true, minZoom: 1 });
    map.attributionControl.setPrefix(false);
    if (element.dataset.search || element.dataset.nearest) {
      map.attributionControl.addAttribution("Places: GeoNames (CC BY 4.0)");
    }
    element.detourMap = map;
    // The tile server the server names, when it names one; else the outlines it carries.
    if (element.dataset.tiles) {
      L.tileLayer(element.dataset.tiles, {
        maxZoom: 19,
        attribution: escaped(element.dataset.tilesAttribution || ""),
      }).addTo(map);
      return map;
    }
    map.attributionControl.addAttribution("Outlines: Natural Earth");
    getJSON("/assets/countries.geojson", function (outlines) {
      L.geoJSON(outlines, {
        interactive: false,
        style: { color: "#8a97a3", weight: 0.7, fillColor: "#eef1ea", fillOpacity: 1 },
      }).addTo(map).bringToBack();
    });
    return map;
  }

  function pin(map, latlng) {
    return L.circleMarker(latlng, { radius: 7, color: "#a1262b", weight: 2, fillColor: "#a1262b", fillOpacity: 0.5 })
      .addTo(map);
  }

  // Calls done(latlng) after a press held still for LONG_PRESS_MS, and at once on a right-click.
  function longPress(map, done) {
    var container = map.getContainer();
    var timer = null;
    var origin = null;
    function cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      delete container.dataset.pressing;
    }
    container.addEventListener("pointerdown", function (event) {
      if (event.button !== 0 || event.target.closest(".leaflet-control")) return;
      cancel();
      origin = { x: event.clientX, y: event.clientY };
      var point = map.mouseEventToContainerPoint(event);
      container.dataset.pressing = "true";
      timer = setTimeout(function () {
        cancel();
        done(map.containerPointToLatLng(point));
      }, LONG_PRESS_MS);
    });
    container.addEventListener("pointermove", function (event) {
      if (timer !== null && (Math.abs(event.clientX - origin.x) > SLOP || Math.abs(event.clientY - origin.y) > SLOP)) {
        cancel();
      }
    });
    ["pointerup", "pointercancel", "pointerleave"].forEach(function (type) {
      container.addEventListener(type, cancel);
    });
    // A right-click; a touch held down may end in one too, at the point already placed.
    map.on("contextmenu", function (event) {
      cancel();
      done(event.latlng);
    });
  }

  function field(form, name) {
    return name ? form.querySelector("[name='" + name + "']") : null;
  }

  function point(lat, lon) {
    if (!lat.value.trim() || !lon.value.trim()) return null;
    var latitude = Number(lat.value);
    var longitude = Number(lon.value);
    if (!isFinite(latitude) || !isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
    return L.latLng(latitude, longitude);
  }

  function changed(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function picker(element) {
    var form = element.closest("form");
    var lat = field(form, element.dataset.lat);
    var lon = field(form, element.dataset.lon);
    var name = field(form, element.dataset.name);
    element.hidden = false;
    var hint = document.createElement("p");
    hint.className = "hint";
    hint.id = element.id + "-hint";
    hint.textContent =
      "Press and hold a point of the map, or right-click it, to put the place there; " +
      "from the keyboard, move the map with the arrow keys and press Enter to put it at the centre.";
    element.parentNode.insertBefore(hint, element);
    element.setAttribute("aria-label", "Map of the place");
    element.setAttribute("aria-describedby", hint.id);
    var map = baseMap(element);
    var marker = null;
    function show(latlng) {
      if (marker) marker.setLatLng(latlng);
      else marker = pin(map, latlng);
    }
    var start = point(lat, lon);
    if (start) {
      map.setView(start, 9);
      show(start);
    } else {
      map.setView([30, 0], 1);
    }
    function place(latlng) {
      var wrapped = latlng.wrap();
      lat.value = wrapped.lat.toFixed(5);
      lon.value = wrapped.lng.toFixed(5);
      changed(lat);
      changed(lon);
      show(wrapped);
      if (!name || name.value.trim() || !element.dataset.nearest) return;
      getJSON(element.dataset.nearest + "?lat=" + lat.value + "&lon=" + lon.value, function (found) {
        if (found.name && !name.value.trim()) {
          name.value = found.name;
          changed(name);
        }
      });
    }
    longPress(map, place);
    element.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      // Enter puts the place at the centre, and does not send the form.
      event.preventDefault();
      place(map.getCenter());
    });
    [lat, lon].forEach(function (input) {
      input.addEventListener("change", function () {
        var now = point(lat, lon);
        if (!now) return;
        show(now);
        map.panTo(now);
      });
    });
    if (element.dataset.search) search(element, map);
  }

  // A search box above the map: places whose names start with what is typed, each a button that
  // centres the map on it.
  function search(element, map) {
    var id = element.id + "-search";
    var label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = "Find a place on the map";
    var input = document.createElement("input");
    input.type = "search";
    input.id = id;
    input.autocomplete = "off";
    var status = document.createElement("p");
    status.className = "hint";
    status.id = id + "-status";
    status.setAttribute("aria-live", "polite");
    input.setAttribute("aria-describedby", status.id);
    var results = document.createElement("ul");
    results.className = "map-results";
    element.parentNode.insertBefore(label, element);
    element.parentNode.insertBefore(input, element);
    element.parentNode.insertBefore(status, element);
    element.parentNode.insertBefore(results, element);
    var timer = null;
    input.addEventListener("keydown", function (event) {
      // Enter in the box does not send the form: the places are found as they are typed.
      if (event.key === "Enter") event.preventDefault();
    });
    input.addEventListener("input", function () {
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(function () {
        timer = null;
        var text = input.value.trim();
        if (!text) {
          results.textContent = "";
          status.textContent = "";
          return;
        }
        getJSON(element.dataset.search + "?q=" + encodeURIComponent(text), function (places) {
          if (!Array.isArray(places) || input.value.trim() !== text) return;
          results.textContent = "";
          var count = places.length;
          status.textContent = count ? count + (count === 1 ? " place found." : " places found.") : "No place found.";
          places.forEach(function (place) {
            var item = document.createElement("li");
            var button = document.createElement("button");
            button.type = "button";
            button.textContent = place.name + ", " + place.country;
            button.addEventListener("click", function () {
              map.setView([place.lat, place.lon], 11);
              results.textContent = "";
              status.textContent = "The map shows " + button.textContent + ": press Enter on it to put the place there.";
              element.focus();
            });
            item.appendChild(button);
            results.appendChild(item);
          });
        });
      }, 200);
    });
  }

  function shower(element) {
    var points = JSON.parse(element.dataset.points || "[]");
    if (!points.length) return;
    element.hidden = false;
    var map = baseMap(element);
    var bounds = [];
    points.forEach(function (place) {
      var latlng = L.latLng(place.lat, place.lon);
      pin(map, latlng).bindTooltip(escaped(place.label), { permanent: points.length <= 6, direction: "right" });
      bounds.push(latlng);
    });
    if (bounds.length === 1) map.setView(bounds[0], 11);
    else map.fitBounds(L.latLngBounds(bounds), { padding: [30, 30], maxZoom: 14 });
  }

  // The problem found at `input` as it is typed, after it and announced, and the form held back
  // while it stands. The server's own problem at the field, if any, is left as it is.
  function problem(input, text) {
    input.setCustomValidity(text);
    var id = input.id + "-live";
    var shown = document.getElementById(id);
    if (text && !shown) {
      shown = document.createElement("span");
      shown.className = "problem";
      shown.id = id;
      shown.setAttribute("aria-live", "polite");
      input.parentNode.insertBefore(shown, input.nextSibling);
    }
    if (shown) shown.textContent = text;
    var described = (input.getAttribute("aria-describedby") || "").split(" ").filter(function (word) {
      return word && word !== id;
    });
    if (text) described.unshift(id);
    if (described.length) input.setAttribute("aria-describedby", described.join(" "));
    else input.removeAttribute("aria-describedby");
    if (text) input.setAttribute("aria-invalid", "true");
    else if (!document.getElementById(input.id + "-problem")) input.removeAttribute("aria-invalid");
  }

  function live(form) {
    var arrival = form.querySelector("input[name='arrival']");
    var departure = form.querySelector("input[name='departure']");
    function dates() {
      if (!arrival || !departure) return;
      var wrong = arrival.value && departure.value && departure.value <= arrival.value;
      problem(departure, wrong ? "Departure " + departure.value + " is not after arrival " + arrival.value + "." : "");
    }
    if (arrival && departure) {
      arrival.addEventListener("input", dates);
      departure.addEventListener("input", dates);
    }
    [["lat", 90, "latitude"], ["lon", 180, "longitude"]].forEach(function (rule) {
      form.querySelectorAll("input[name$='" + rule[0] + "']").forEach(function (input) {
        function check() {
          var text = input.value.trim();
          var value = Number(text);
          var wrong = text && (!isFinite(value) || Math.abs(value) > rule[1]);
          problem(input, wrong ? "A " + rule[2] + " is a number of degrees from -" + rule[1] + " to " + rule[1] + "." : "");
        }
        input.addEventListener("input", check);
      });
    });
  }

  document.querySelectorAll("[data-map-pick]").forEach(picker);
  document.querySelectorAll("[data-map-show]").forEach(shower);
  document.querySelectorAll("form[data-live]").forEach(live);
})();
